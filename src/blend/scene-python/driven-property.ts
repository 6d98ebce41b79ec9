/** One step of an RNA path: a property name, or a subscript by name or by position. */
type Step = { kind: 'name'; name: string } | { kind: 'key'; key: string } | { kind: 'index'; index: number };

/** What a subscript of a collection names: the socket a node's `inputs[1]` is, when the file says. */
export type SocketName = (node: string, side: 'inputs' | 'outputs', index: number | string) => string | null;

const AXES = 'XYZW';
const QUATERNION = 'WXYZ';
const CHANNELS = 'RGBA';

/** Names Blender's UI gives some properties (its labels), where the words of the property's identifier differ. */
const LABELS: Record<string, string> = {
  rotation_euler: 'Rotation',
  rotation_quaternion: 'Rotation',
  rotation_axis_angle: 'Rotation',
  delta_rotation_euler: 'Delta Rotation',
  hide_render: 'Disable in Renders',
  hide_viewport: 'Disable in Viewports',
  value: 'Value',
};

/** Collections whose elements are named by their key (`modifiers["Wave"]` reads "Wave"). */
const NAMED = new Set(['nodes', 'modifiers', 'constraints', 'bones', 'key_blocks', 'layers', 'materials', 'vertex_groups', 'shape_keys', 'texture_slots']);

function parse(path: string): Step[] | null {
  const steps: Step[] = [];
  let rest = path;
  while (rest !== '') {
    const name = /^\.?([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    if (name) {
      steps.push({ kind: 'name', name: name[1]! });
      rest = rest.slice(name[0].length);
      continue;
    }
    const key = /^\["((?:[^"\\]|\\.)*)"\]/.exec(rest);
    if (key) {
      steps.push({ kind: 'key', key: key[1]!.replace(/\\(.)/g, '$1') });
      rest = rest.slice(key[0].length);
      continue;
    }
    const index = /^\[(\d+)\]/.exec(rest);
    if (index) {
      steps.push({ kind: 'index', index: Number(index[1]) });
      rest = rest.slice(index[0].length);
      continue;
    }
    return null;
  }
  return steps;
}

/** `energy` → "Energy", `use_nodes` → "Use Nodes": the words Blender's UI makes of an identifier without a label. */
function titled(identifier: string): string {
  return LABELS[identifier] ?? identifier.split('_').filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
}

function component(property: string, index: number): string {
  if (/^rotation_(quaternion|axis_angle)\b/.test(property)) return QUATERNION[index] ?? String(index);
  if (/colou?r/i.test(property)) return CHANNELS[index] ?? String(index);
  return AXES[index] ?? String(index);
}

/**
 * The words for what a driver drives, as the artist knows it from Blender's UI: `location` index 2
 * is "Location Z", `nodes["Emission"].inputs[1].default_value` is "Emission › Strength" (the socket's
 * name from the file), `key_blocks["Smile"].value` is "Smile › Value", `["wobble"]` is `wobble`.
 * A path it cannot read is given as it is stored.
 */
export function drivenPropertyWords(path: string, index: number, socketName: SocketName = () => null): string {
  const steps = parse(path);
  if (steps === null || steps.length === 0) return path;
  const words: string[] = [];
  let node: string | null = null;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const previous = steps[i - 1];
    const after = previous?.kind === 'name' ? previous.name : null;
    if (step.kind === 'name') {
      if (NAMED.has(step.name) || step.name === 'inputs' || step.name === 'outputs' || step.name === 'pose' || step.name === 'data') continue;
      if (step.name === 'default_value' && words.length > 0) continue;
      words.push(titled(step.name));
      continue;
    }
    if ((after === 'inputs' || after === 'outputs') && node !== null) {
      words.push(socketName(node, after, step.kind === 'key' ? step.key : step.index) ?? (step.kind === 'key' ? step.key : `${after === 'inputs' ? 'input' : 'output'} ${step.index + 1}`));
      continue;
    }
    if (step.kind === 'key') {
      if (after === 'nodes') node = step.key;
      words.push(step.key);
      continue;
    }
    words.push(String(step.index + 1));
  }
  const last = steps.at(-1)!;
  const property = last.kind === 'name' ? last.name : '';
  const text = words.join(' › ') || path;
  return index >= 0 && last.kind === 'name' ? `${text} ${component(`${property} ${words.at(-1) ?? ''}`, index)}` : text;
}
