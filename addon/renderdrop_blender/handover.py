"""The hand-over to a running Renderdrop app: `handover.json` in Renderdrop's configuration folder
names a local address and a secret; the scene is POSTed there and the app shows its review sheet."""

import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

from .locate import config_dir

TAKEN = "taken"
REFUSED = "refused"
ABSENT = "absent"


def _pid_alive(pid):
    if not isinstance(pid, int) or pid <= 0:
        return False
    if sys.platform == "win32":
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)
        if not handle:
            return False
        code = ctypes.c_ulong()
        ctypes.windll.kernel32.GetExitCodeProcess(handle, ctypes.byref(code))
        ctypes.windll.kernel32.CloseHandle(handle)
        return code.value == 259
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def read_handover(folder=None):
    """The running app's hand-over (url, token), or None: no file, not ours, or the app is gone."""
    path = os.path.join(folder or config_dir(), "handover.json")
    try:
        if sys.platform != "win32":
            info = os.stat(path)
            if info.st_uid != os.getuid() or info.st_mode & 0o077:
                return None
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != 1:
        return None
    url, token = data.get("url"), data.get("token")
    if not isinstance(url, str) or not url.startswith("http://127.0.0.1:") or not isinstance(token, str) or not token:
        return None
    if not _pid_alive(data.get("pid")):
        return None
    return {"url": url, "token": token}


def post(body, folder=None, timeout=5.0):
    """POSTs `body` to the running app. Returns (TAKEN, submission id or None) for 202; (REFUSED, None) for 401/403;
    (REFUSED, line) when the app refused the scene saying why (400, 413, 415, 422); (ABSENT, None) when
    no app of ours answers there."""
    handover = read_handover(folder)
    if handover is None:
        return ABSENT, None
    request = urllib.request.Request(
        handover["url"],
        data=json.dumps(body).encode("utf-8"),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": "Bearer " + handover["token"]},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            if response.status != 202:
                return ABSENT, None
            try:
                answer = json.loads(response.read(16384).decode("utf-8") or "null")
            except ValueError:
                answer = None
            submission = answer.get("submissionId") if isinstance(answer, dict) else None
            return TAKEN, submission if isinstance(submission, str) else None
    except urllib.error.HTTPError as error:
        if error.code in (401, 403):
            return REFUSED, None
        if error.code in (400, 413, 415, 422):
            return REFUSED, _error_line(error)
        return ABSENT, None
    except (OSError, ValueError):
        return ABSENT, None


def _error_line(error):
    try:
        said = json.loads(error.read(16384).decode("utf-8")).get("error")
    except (OSError, ValueError, AttributeError):
        said = None
    return " ".join(str(said).split())[:300] if said else None


def hand_over_scene(scene_path, folder=None):
    """Hands the saved scene (absolute path) to the running app: (TAKEN | REFUSED | ABSENT, line)."""
    return post({"scene": os.path.abspath(scene_path)}, folder)


def app_running(folder=None):
    """Whether a Renderdrop app of this user is running (its hand-over file is there and alive)."""
    return read_handover(folder) is not None


def progress(submission_id, folder=None, timeout=5.0, seen_preview=None):
    """How a scene handed over is doing, as the running app tells it (status, frames, clock, framesDir,
    and `preview`, a data URL of the last frame, when it changed since `seen_preview`), or None when
    the app is gone or no longer knows it."""
    handover = read_handover(folder)
    if handover is None:
        return None
    request = urllib.request.Request(
        handover["url"] + "/submissions/" + urllib.parse.quote(submission_id, safe="") + ("?seenPreview=" + urllib.parse.quote(seen_preview, safe="") if seen_preview else ""),
        headers={"Authorization": "Bearer " + handover["token"]},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = json.loads(response.read(32 << 20).decode("utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
