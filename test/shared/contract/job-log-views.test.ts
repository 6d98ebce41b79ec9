import { describe, expect, it } from 'vitest';
import { firstTellingLine } from '../../../src/shared/contract';

describe('the line that explains a failed job', () => {
  it('is the first error of the part the job failed in, not a harmless one before it', () => {
    const lines = [
      '── Scene analysis with Blender 3.4.1 ──',
      "Error: Cannot read image 'textures/missing.png'",
      '── Render ──',
      'Fra:1 Mem:9M | Sample 1/4',
      'Traceback (most recent call last):',
      'RuntimeError: the camera is gone',
      '── Failed: Blender stopped (exit code 1) ──',
    ];
    expect(firstTellingLine(lines)).toBe(4);
  });

  it("is a render worker's error line too, and a crash", () => {
    expect(firstTellingLine(['── Render on the render workers ──', '[box-2] Fra:3 Mem:9M', '[box-2] Segmentation fault', '── Failed: x ──'])).toBe(2);
  });

  it("is the node's closing line when no line says more", () => {
    expect(firstTellingLine(['── Render ──', 'Fra:1 Mem:9M', '── Failed: The render took longer than allowed. ──'])).toBe(2);
  });

  it('is the first error anywhere in a log without a closing line, and none in a clean one', () => {
    expect(firstTellingLine(['Read blend', 'ERROR (bke.lib): missing'])).toBe(1);
    expect(firstTellingLine(['Read blend', 'Fra:1', 'Saved'])).toBeNull();
  });
});
