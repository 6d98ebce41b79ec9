"""Helpers shared by the scripts Renderdrop runs inside Blender."""

import re
import sys

import bpy


def script_args():
    """The arguments after `--` on Blender's command line."""
    return sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []


def out_path(script):
    """The JSON output path, the first argument after `--`."""
    argv = script_args()
    if not argv:
        raise SystemExit("%s: missing output path after --" % script)
    return argv[0]


def enum_choices(owner, attr):
    """The values a dynamic enum accepts now (Blender lists them when given an unknown one)."""
    try:
        setattr(owner, attr, "\x01renderdrop-probe")
    except TypeError as err:
        found = re.search(r"not found in \((.*)\)\s*$", str(err))
        if found:
            return re.findall(r"'((?:[^'\\]|\\.)*)'", found.group(1))
    return [getattr(owner, attr)]


def compositor_tree(scene):
    """The compositor node tree (Blender 5 moved it to scene.compositing_node_group)."""
    tree = getattr(scene, "compositing_node_group", None)
    return tree if tree is not None else getattr(scene, "node_tree", None)


# The first Blender whose renders leave muted strips out when deciding whether the sequencer makes the
# frames (RE_seq_render_active checks render_is_muted there; Blender 3.4 to 4.3 count every strip).
MUTED_STRIPS_IGNORED_FROM = (5, 0)


def top_level_strips(editor):
    """The strips at the top of a sequence editor (Blender 5 calls them `strips`, older ones `sequences`)."""
    strips = getattr(editor, "strips", None)
    return strips if strips is not None else editor.sequences


def renders_sequencer(scene):
    """Whether rendering `scene` takes its frames from the video sequencer, as this Blender decides it.

    Blender's RE_seq_render_active: the post-processing "Sequencer" option is on and the top level of
    the edit holds a strip that is not a sound strip (and, from MUTED_STRIPS_IGNORED_FROM, that is not
    muted, itself or through its channel). Such a render needs no camera.
    """
    editor = scene.sequence_editor
    if not scene.render.use_sequencer or editor is None:
        return False
    skip_muted = bpy.app.version[:2] >= MUTED_STRIPS_IGNORED_FROM
    channels = getattr(editor, "channels", None)
    for strip in top_level_strips(editor):
        if strip.type == "SOUND":
            continue
        if skip_muted and (strip.mute or (channels is not None and strip.channel < len(channels) and channels[strip.channel].mute)):
            continue
        return True
    return False


# Folder names Blender gives caches it makes by itself (src/blend/trace/temporary-cache.ts holds the
# same rule for the tracer): a fluid domain's cache_fluid / cache_fluid_<hex>, an ocean's cache_ocean,
# the blendcache_ folder of the point caches of a file never saved.
TEMPORARY_CACHE_NAMES = {
    "fluid": re.compile(r"^cache_fluid(_[0-9a-f]{1,8})?$"),
    "ocean": re.compile(r"^cache_ocean$"),
    "point": re.compile(r"^blendcache_"),
}
# Blender's folder for one session inside the temporary folder (BKE_tempdir_session).
SESSION_FOLDER = re.compile(r"^blender_[A-Za-z0-9]{6}$")
# The system's temporary folders, from the root of a disk.
SYSTEM_TEMP = [
    re.compile(r"^(private/)?(var/)?tmp$", re.I),
    re.compile(r"^(private/)?var/folders/[^/]+/[^/]+/T$"),
    re.compile(r"^(.+/)?AppData/Local/Temp$", re.I),
    re.compile(r"^Windows/Temp$", re.I),
    re.compile(r"^temp$", re.I),
]


def is_temporary_cache(kind, stored):
    """Whether a stored cache folder ("fluid", "ocean" or "point") is one Blender made in its temporary folder.

    A default cache folder name in Blender's session folder (blender_XXXXXX), or straight in a system
    temporary folder, stored absolute or relative climbing out of the .blend's folder. Blender deletes
    its session folder when it quits, so such a path names nothing once the file is opened again.
    """
    name_rule = TEMPORARY_CACHE_NAMES.get(kind)
    if name_rule is None or not stored:
        return False
    relative = stored.startswith("//")
    absolute = not relative and (stored[:1] in ("/", "\\") or re.match(r"^[A-Za-z]:[\\/]", stored) is not None)
    if not relative and not absolute:
        return False
    parts = [p for p in re.split(r"[\\/]+", stored[2:] if relative else stored) if p not in ("", ".")]
    if absolute and parts and re.match(r"^[A-Za-z]:$", parts[0]):
        parts.pop(0)
    if not parts or not name_rule.match(parts[-1]):
        return False
    parts.pop()
    if parts and SESSION_FOLDER.match(parts[-1]):
        return True
    climbs = 0
    while parts and parts[0] == "..":
        parts.pop(0)
        climbs += 1
    if ".." in parts or (relative and climbs == 0):
        return False
    folder = "/".join(parts)
    return any(rule.match(folder) for rule in SYSTEM_TEMP)
