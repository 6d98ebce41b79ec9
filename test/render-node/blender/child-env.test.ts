import { describe, expect, it } from 'vitest';
import { blenderEnvironment, withoutSecrets } from '../../../src/shared/security/child-env';

const SECRETS = { RENDERDROP_API_KEY: 'RJ-must-not-leak', RENDERDROP_WEBHOOK_SECRET: 'whsec-must-not-leak', AWS_SECRET_ACCESS_KEY: 'aws-must-not-leak', GITHUB_TOKEN: 'ghp-must-not-leak' };

describe.skipIf(process.platform === 'win32')('secrets never reach Blender', () => {
  it('blenderEnvironment keeps only what Blender needs: paths, locale, display, Blender, OCIO and GPU settings', () => {
    const env = blenderEnvironment({ ...SECRETS, PATH: '/bin', HOME: '/home/a', LC_ALL: 'C', BLENDER_USER_SCRIPTS: '/s', CUDA_VISIBLE_DEVICES: '0', NPM_TOKEN: 'x', DATABASE_URL: 'y' });
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/a', LC_ALL: 'C', BLENDER_USER_SCRIPTS: '/s', CUDA_VISIBLE_DEVICES: '0' });
  });

  it('withoutSecrets leaves the original environment alone', () => {
    const env = { RENDERDROP_API_KEY: 'RJ-must-not-leak', RENDERDROP_WEBHOOK_SECRET: 'whsec-must-not-leak', PATH: '/bin' };
    expect(withoutSecrets(env)).toEqual({ PATH: '/bin' });
    expect(env.RENDERDROP_API_KEY).toBe('RJ-must-not-leak');
  });
});
