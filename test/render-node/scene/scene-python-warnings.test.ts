import { describe, expect, it } from 'vitest';
import { scenePythonWarnings } from '../../../src/render-node/scene/scene-python-warnings';

const found = {
  drivers: [{ owner: 'Cube', property: 'Location Z', expression: 'wobble(frame)' }],
  modules: [{ name: 'rig_wobble.py' }],
};

describe('what the review says of a scene\'s Python', () => {
  it('warns of each driver and registered text block on a node that does not run scene Python', () => {
    expect(scenePythonWarnings(found, false)).toEqual([
      { code: 'python-driver', message: 'Driver on Cube › Location Z uses Python (`wobble(frame)`): this farm does not run scene Python, so the driver gives 0 here, not what it gives in your Blender.' },
      { code: 'python-module', message: 'Text `rig_wobble.py` runs as a module in your Blender, not here: this farm does not run scene Python, so what it sets up (functions for drivers, handlers) is missing.' },
    ]);
  });

  it('notes them as running on a node that trusts its scenes', () => {
    expect(scenePythonWarnings(found, true)).toEqual([
      { code: 'python-runs', message: 'Driver on Cube › Location Z uses Python (`wobble(frame)`): this farm runs scene Python, so it is driven as in your Blender.' },
      { code: 'python-runs', message: 'Text `rig_wobble.py` runs as a module here, as in your Blender.' },
    ]);
  });

  it('says nothing of a scene without any, and quotes a long or odd expression on one line', () => {
    expect(scenePythonWarnings({ drivers: [], modules: [] }, false)).toEqual([]);
    const [long] = scenePythonWarnings({ drivers: [{ owner: 'Cube', property: 'Scale X', expression: `f(\`a\`,\n${'x'.repeat(200)})` }], modules: [] }, false);
    expect(long!.message).toMatch(/^Driver on Cube › Scale X uses Python \(`f\('a', x+…`\)/);
  });
});
