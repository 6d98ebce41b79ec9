import { BlendFile, type StructView } from '../reader';
import { drivenPropertyWords, type SocketName } from './driven-property';
import { runsRestricted } from './restricted-expression';
import { isSimpleExpression } from './simple-expression';

/** A driver whose expression Blender runs with Python only when it trusts the file's scripts. */
export interface PythonDriver {
  /** Who owns it, as the artist names it: "Cube", "material Glow", "shape keys of Face". */
  owner: string;
  /** What it drives, in the UI's words ("Location Z", "Emission › Strength"). */
  property: string;
  expression: string;
}

/** A text block registered as a module (Text › Register): Blender runs it when it opens the file, if it trusts the file. */
export interface PythonModule {
  name: string;
}

/** What in a .blend needs Python to render as the artist sees it in a Blender that trusts the file. */
export interface ScenePython {
  drivers: PythonDriver[];
  modules: PythonModule[];
}

/** ChannelDriver.type: an expression (the others average, sum, or take the least or most of the variables). */
const DRIVER_TYPE_PYTHON = 1;
/** ChannelDriver.flag: `self` is in the expression's namespace. */
const DRIVER_FLAG_USE_SELF = 1 << 6;
/** FCurve.flag: muted, or disabled because its path leads nowhere; Blender does not evaluate it. */
const FCURVE_MUTED = 1 << 4;
const FCURVE_DISABLED = 1 << 10;
/** Text.flags: "Register", run as a module when the file is loaded. */
const TXT_ISSCRIPT = 1 << 4;

/** How the artist reads an ID's kind before its name (objects go by their name alone). */
const KINDS: Record<string, string> = {
  OB: '',
  MA: 'material',
  WO: 'world',
  SC: 'scene',
  NT: 'node group',
  LA: 'light',
  CA: 'camera',
  ME: 'mesh',
  CU: 'curve',
  TE: 'texture',
  LS: 'line style',
  AR: 'armature',
  GR: 'collection',
  PA: 'particle settings',
  SP: 'speaker',
  LT: 'lattice',
  MB: 'metaball',
  CV: 'curves',
  PT: 'point cloud',
  VO: 'volume',
  GD: 'grease pencil',
  GP: 'grease pencil',
  MC: 'movie clip',
  MS: 'mask',
  LP: 'light probe',
};

function nameOf(view: StructView): string {
  return view.embedded('id')?.string('name')?.slice(2) ?? '';
}

function isLinked(view: StructView): boolean {
  return (view.embedded('id')?.pointer('lib') ?? 0n) !== 0n;
}

async function ownerWords(file: BlendFile, code: string, id: StructView): Promise<string> {
  const name = nameOf(id);
  if (code === 'KE') {
    const user = await file.follow(id, 'from');
    return user ? `shape keys of ${nameOf(user)}` : `shape keys ${name}`;
  }
  const kind = KINDS[code] ?? 'data-block';
  return kind === '' ? name : `${kind} ${name}`;
}

/** The socket names of a node tree's nodes, read when a driver's path needs one. */
function socketNames(file: BlendFile, tree: StructView): { lookup: SocketName; load: () => Promise<void> } {
  const sockets = new Map<string, { inputs: string[][]; outputs: string[][] }>();
  const load = async () => {
    if (sockets.size > 0) return;
    for (const node of await file.list(tree, 'nodes')) {
      const side = async (field: string) => (await file.list(node, field)).map((s) => [s.string('name') ?? '', s.string('identifier') ?? '']);
      sockets.set(node.string('name') ?? '', { inputs: await side('inputs'), outputs: await side('outputs') });
    }
  };
  const lookup: SocketName = (node, side, at) => {
    const list = sockets.get(node)?.[side];
    if (!list) return null;
    const found = typeof at === 'number' ? list[at] : list.find(([name, identifier]) => identifier === at || name === at);
    return found?.[0] || null;
  };
  return { lookup, load };
}

/** The Python drivers of one AnimData (of an ID, or of the node tree embedded in it). */
async function pythonDrivers(file: BlendFile, holder: StructView, owner: string, tree: StructView | null): Promise<PythonDriver[]> {
  const animData = await file.follow(holder, 'adt');
  if (!animData) return [];
  const found: PythonDriver[] = [];
  const sockets = tree ? socketNames(file, tree) : null;
  for (const curve of await file.list(animData, 'drivers')) {
    if (((curve.number('flag') ?? 0) & (FCURVE_MUTED | FCURVE_DISABLED)) !== 0) continue;
    const driver = await file.follow(curve, 'driver');
    if (!driver || driver.number('type') !== DRIVER_TYPE_PYTHON) continue;
    const expression = (driver.string('expression') ?? '').trim();
    if (expression === '') continue;
    const variables = (await file.list(driver, 'variables')).map((v) => v.string('name') ?? '');
    const useSelf = ((driver.number('flag') ?? 0) & DRIVER_FLAG_USE_SELF) !== 0;
    if (isSimpleExpression(expression, variables) || runsRestricted(expression, variables, useSelf)) continue;
    const pathBlock = file.blockOf(curve, 'rna_path');
    const path = pathBlock < 0 ? '' : await file.blockString(pathBlock);
    if (sockets && /\.(inputs|outputs)\[/.test(path)) await sockets.load();
    found.push({ owner, property: drivenPropertyWords(path, curve.number('array_index') ?? -1, sockets?.lookup), expression });
  }
  return found;
}

/** Text blocks registered as modules. */
async function registeredTexts(file: BlendFile): Promise<PythonModule[]> {
  const modules: PythonModule[] = [];
  for (const block of file.idBlocks('TX')) {
    const text = await file.struct(block);
    if (text && !isLinked(text) && ((text.number('flags') ?? 0) & TXT_ISSCRIPT) !== 0) modules.push({ name: nameOf(text) });
  }
  return modules;
}

/**
 * What in a .blend needs Python to render as it does in a Blender that trusts the file: drivers
 * (of every local data-block, and of the node trees inside materials, worlds, lights, scenes...)
 * whose expression is neither simple (Blender's own evaluator) nor one Blender's restricted Python
 * runs without trust, and text blocks registered as modules. Drivers of other types (average, sum,
 * minimum, maximum), muted ones and empty expressions need nothing. Linked data is its library's.
 */
export async function readScenePython(path: string): Promise<ScenePython> {
  const file = await BlendFile.open(path);
  try {
    const drivers: PythonDriver[] = [];
    for (const block of file.allIdBlocks()) {
      const code = file.codeOf(block);
      const id = await file.struct(block);
      if (!id || !id.has('id') || isLinked(id)) continue;
      const owner = await ownerWords(file, code, id);
      if (id.has('adt')) drivers.push(...(await pythonDrivers(file, id, owner, code === 'NT' ? id : null)));
      if (id.has('nodetree') && id.pointer('nodetree') !== 0n) {
        const tree = await file.follow(id, 'nodetree');
        if (tree) drivers.push(...(await pythonDrivers(file, tree, owner, tree)));
      }
    }
    return { drivers, modules: await registeredTexts(file) };
  } finally {
    await file.close();
  }
}
