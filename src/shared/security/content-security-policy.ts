/**
 * The window's Content Security Policy: only the app's own scripts, styles (inline styles allowed:
 * React sets them), images from itself or data/blob URLs (job previews), no plugins, frames, forms
 * or base changes. A development server adds its origin and hot-reload socket, and the inline
 * preamble its React plugin injects.
 */
export function contentSecurityPolicy(options: { devServer?: string } = {}): string {
  const dev = options.devServer ? new URL(options.devServer) : null;
  const socket = dev ? `${dev.protocol === 'https:' ? 'wss' : 'ws'}://${dev.host}` : null;
  return [
    "default-src 'self'",
    dev ? `script-src 'self' 'unsafe-inline' ${dev.origin}` : "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    dev ? `connect-src 'self' ${dev.origin} ${socket}` : "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
