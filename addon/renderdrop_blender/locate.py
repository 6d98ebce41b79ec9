"""Where Renderdrop is: its configuration folder (the running app's hand-over file) and the command."""

import json
import os
import shutil
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(_HERE, ".renderdrop-install.json")


def config_dir():
    """Renderdrop's configuration folder: RENDERDROP_CONFIG_DIR, else the system's folder for renderdrop."""
    given = os.environ.get("RENDERDROP_CONFIG_DIR")
    if given:
        return given
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        return os.path.join(os.environ.get("APPDATA") or os.path.join(home, "AppData", "Roaming"), "renderdrop", "Config")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Preferences", "renderdrop")
    return os.path.join(os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"), "renderdrop")


def _installed_command():
    """The command recorded by the Renderdrop that installed this add-on, and the environment it needs,
    when it is still there; else (None, why not)."""
    try:
        with open(MANIFEST, encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError):
        return None, "no install record"
    command = record.get("cli") if isinstance(record, dict) else None
    if not isinstance(command, list) or not command or not all(isinstance(part, str) for part in command):
        return None, "the install record names no command"
    gone = [part for part in command if os.path.isabs(part) and not os.path.exists(part)]
    if gone:
        return None, "the command it records is gone (%s)" % gone[0]
    env = record.get("cliEnv")
    if isinstance(env, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
        _command_env[tuple(command)] = dict(env)
    return command, None


_command_env = {}
tried = []


def command_env(command):
    """Environment variables the command needs, as its install record says (e.g. ELECTRON_RUN_AS_NODE)."""
    return _command_env.get(tuple(command or ()), {})


def find_cli(configured=""):
    """The `renderdrop` command as a list (program and first arguments), or None when there is none.

    Looks at the path set in the add-on's preferences, then PATH, then the command of the Renderdrop
    that installed the add-on (the app records its own). What it tried is left in `tried`.
    """
    del tried[:]
    if configured:
        path = bpy_abspath(configured)
        if os.path.isfile(path):
            if path.endswith(".js"):
                node = shutil.which("node")
                if node:
                    return [node, path]
                tried.append("the add-on's preferences: %s (no node on PATH to run it)" % path)
                return None
            return [path]
        tried.append("the add-on's preferences: %s (no such file)" % path)
        return None
    on_path = shutil.which("renderdrop")
    if on_path:
        return [on_path]
    tried.append("renderdrop on PATH (not there)")
    command, why = _installed_command()
    if command:
        return command
    tried.append("the command of the Renderdrop that installed the add-on (%s)" % why)
    return None


def bpy_abspath(path):
    try:
        import bpy

        return os.path.abspath(bpy.path.abspath(path))
    except ImportError:
        return os.path.abspath(path)
