import { describe, expect, it } from 'vitest';
import { openPathWith } from '../../../src/host/jobs/open-path';

describe('openPathWith with real openers', () => {
  it('resolves once the opener started and did not fail', async () => {
    await expect(openPathWith('true', 200)('/tmp')).resolves.toBeUndefined();
  });

  it('says in plain words that there is nothing to open folders with, naming the folder', async () => {
    await expect(openPathWith('renderdrop-no-such-opener', 200)('/home/me/Renders/shot')).rejects.toThrow(
      'Could not open /home/me/Renders/shot: this computer has no renderdrop-no-such-opener to open folders with. Open it in your file manager.',
    );
  });

  it('says why when the opener fails at once (no desktop session)', async () => {
    await expect(openPathWith('false', 2000)('/home/me/Renders/shot')).rejects.toThrow(/no file manager or desktop session.*Open it in your file manager\.$/);
  });
});
