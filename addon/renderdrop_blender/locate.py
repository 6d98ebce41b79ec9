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
    """The command recorded by the Renderdrop that installed this add-on, when it is still there."""
    try:
        with open(MANIFEST, encoding="utf-8") as f:
            command = json.load(f).get("cli")
    except (OSError, ValueError):
        return None
    if not isinstance(command, list) or not command or not all(isinstance(part, str) for part in command):
        return None
    return command if all(os.path.exists(part) for part in command if os.path.isabs(part)) else None


def find_cli(configured=""):
    """The `renderdrop` command as a list (program and first arguments), or None when there is none.

    Looks at the path set in the add-on's preferences, then PATH, then the command of the Renderdrop
    that installed the add-on.
    """
    if configured:
        path = bpy_abspath(configured)
        if os.path.isfile(path):
            if path.endswith(".js"):
                node = shutil.which("node")
                return [node, path] if node else None
            return [path]
        return None
    on_path = shutil.which("renderdrop")
    if on_path:
        return [on_path]
    return _installed_command()


def bpy_abspath(path):
    try:
        import bpy

        return os.path.abspath(bpy.path.abspath(path))
    except ImportError:
        return os.path.abspath(path)
