import { request } from 'node:http';

/** What the app's page holds after the login link: the session cookie and the page's secret. */
export interface WebLogin {
  /** `renderdrop_session=…`, as a Cookie header. */
  cookie: string;
  /** The secret the login page carried in its `<meta>`. */
  secret: string;
}

/** Opens the one-time link as the app's page does (`GET /?token=`) and keeps what it hands over. */
export function logIn(port: number, token: string): Promise<WebLogin> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: `/?token=${token}`, headers: { host: `127.0.0.1:${port}` } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        const secret = /<meta name="renderdrop-session" content="([\w-]+)">/.exec(body)?.[1];
        const cookie = String(res.headers['set-cookie'] ?? '').split(';')[0];
        if (res.statusCode !== 200 || !secret || !cookie) reject(new Error(`login failed (${res.statusCode}): ${body}`));
        else resolve({ cookie, secret });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
