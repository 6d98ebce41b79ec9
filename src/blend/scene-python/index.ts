/** What other layers use of blend/scene-python: what in a .blend needs Python to render as the artist sees it. */
export { readScenePython } from './scene-python';
export type { PythonDriver, PythonModule, ScenePython } from './scene-python';
