"""What the add-on is doing for the open scene, and the background thread that does it.

Every call to Renderdrop (the hand-over, the command) runs on a thread; its results are queued and
applied on Blender's main thread by a timer (`bpy.app.timers`), which also redraws the panel and the
status bar. Blender's UI never waits.
"""

import base64
import os
import queue
import tempfile
import threading
import time
import urllib.request

import bpy

from . import cli, handover
from .locate import find_cli
from .preferences import cli_path_setting

ENDED = ("completed", "failed", "canceled")


class State:
    """The panel's and status bar's view of the current submission."""

    def __init__(self):
        self.phase = "idle"  # idle, sending, review, starting, rendering, completed, ended, app
        self.scene = ""
        self.message = ""
        self.review = None
        self.job_id = None
        self.job_status = None
        self.done = 0
        self.total = 0
        self.render_started = None
        self.seconds_left = None
        self.preview_path = None
        self.preview_version = 0
        self.frames_dir = None
        self.command = None
        self.warnings_told = set()


state = State()
_inbox = queue.Queue()
_busy = threading.Event()
_following = set()
_preview_dir = tempfile.mkdtemp(prefix="renderdrop-previews-")


def busy():
    return _busy.is_set()


def _work(fn, *args):
    def run():
        try:
            fn(*args)
        except cli.RenderdropError as error:
            _inbox.put(("error", error.line))
        except Exception as error:  # noqa: BLE001 - every failure is one line, never a traceback
            _inbox.put(("error", cli.one_line("Renderdrop: " + str(error))))
        finally:
            _busy.clear()

    _busy.set()
    threading.Thread(target=run, daemon=True).start()
    if not bpy.app.timers.is_registered(_pump):
        bpy.app.timers.register(_pump, first_interval=0.1, persistent=True)


def _send(scene, configured):
    taken, said = handover.hand_over_scene(scene)
    if taken == handover.TAKEN:
        _inbox.put(("app", said))
        if said:
            _follow_in_app(said)
        return
    if taken == handover.REFUSED:
        raise cli.RenderdropError(("Renderdrop: " + said) if said else "The Renderdrop app refused the scene: restart the app, then send it again.")
    command = find_cli(configured)
    if command is None:
        raise cli.RenderdropError(cli.not_found())
    _inbox.put(("command", command))
    outcome = cli.submit(command, scene, validate_only=True)
    _inbox.put(("review", outcome.get("review") or {"rows": [], "warnings": [], "jobId": outcome.get("jobId")}))
    _inbox.put(("warnings", outcome.get("warnings")))


def _start(command, scene):
    outcome = cli.submit(command, scene, fresh=False)
    job_id = outcome.get("jobId")
    _inbox.put(("started", job_id))
    follow(command, job_id)


def follow(command, job_id):
    """Follows the job on its own thread (one `renderdrop watch` process), so another scene can be sent
    meanwhile; what it learns is shown while the job is still the one the panel shows."""

    def run():
        try:
            _follow(command, job_id)
        except cli.RenderdropError as error:
            _inbox.put(("error", (job_id, error.line)))
        except Exception as error:  # noqa: BLE001 - every failure is one line, never a traceback
            _inbox.put(("error", (job_id, cli.one_line("Renderdrop: " + str(error)))))
        finally:
            _following.discard(job_id)

    state.job_id = job_id
    _following.add(job_id)
    threading.Thread(target=run, daemon=True).start()
    # Called on the worker thread of `_work`, whose timer (`_pump`) keeps running while a job is followed.


def _follow_in_app(submission_id, interval=1.0):
    """Follows a scene handed over to the running app through the app itself (one local HTTP read a
    second, no process): its frames and the app's time left in the status bar, then its frames folder
    once the app has downloaded them."""

    def run():
        key = "app:" + submission_id
        preview_key = None
        try:
            while state.job_id == key:
                seen = handover.progress(submission_id, seen_preview=preview_key)
                if seen is None:
                    _inbox.put(("error", (key, "Renderdrop no longer answers about this scene: see the app.")))
                    return
                status = seen.get("status")
                clock = seen.get("clock") or {}
                if status:
                    _inbox.put(("progress", (key, status, seen.get("completedFrames") or 0, seen.get("totalFrames") or 0, clock.get("timeLeftSeconds"))))
                if seen.get("preview"):
                    preview_key = seen.get("previewKey")
                    path = _save_data_url(seen["preview"])
                    if path:
                        _inbox.put(("preview", path))
                if seen.get("framesDir"):
                    _inbox.put(("frames", (key, seen["framesDir"])))
                    return
                if status in ("failed", "canceled"):
                    _inbox.put(("error", (key, cli.one_line("The render failed: %s" % (seen.get("failure") or "see the app")) if status == "failed" else "The render was canceled.")))
                    return
                time.sleep(interval)
        finally:
            _following.discard(key)

    state.job_id = "app:" + submission_id
    _following.add(state.job_id)
    threading.Thread(target=run, daemon=True).start()


def _save_data_url(url):
    """Writes an image given as a data URL (`data:image/png;base64,...`) to the previews folder; its path, or None."""
    head, _, data = url.partition(",")
    if not head.startswith("data:image/") or not head.endswith(";base64"):
        return None
    path = os.path.join(_preview_dir, "frame-%d.%s" % (int(time.time() * 1000), "jpg" if "jpeg" in head else "png"))
    try:
        with open(path, "wb") as f:
            f.write(base64.b64decode(data, validate=True))
    except (OSError, ValueError):
        return None
    return path


def _follow(command, job_id):
    preview_url = None
    status, done, total = None, 0, 0
    warnings = None
    events = cli.watch(command, job_id)
    try:
        for event in events:
            if state.job_id != job_id:
                return
            if event.get("jobId") != job_id or event.get("type") not in ("status", "progress"):
                if event.get("type") == "error" and event.get("fatal"):
                    raise cli.RenderdropError(cli.one_line("Renderdrop: " + (event.get("message") or "watching the job failed")))
                continue
            status = event.get("status") or status
            if "completedFrames" in event:
                done, total = event.get("completedFrames") or 0, event.get("totalFrames") or 0
            clock = event.get("clock") or {}
            _inbox.put(("progress", (job_id, status, done, total, clock.get("timeLeftSeconds"))))
            url = event.get("previewUrl")
            if url and url != preview_url:
                preview_url = url
                path = os.path.join(_preview_dir, "frame-%d.png" % int(time.time() * 1000))
                try:
                    urllib.request.urlretrieve(url, path)
                    _inbox.put(("preview", path))
                except (OSError, ValueError):
                    pass
            if status in ENDED:
                break
    finally:
        events.close()
    data = cli.status(command, job_id)
    job = data.get("job") or {}
    warnings = data.get("warnings")
    _inbox.put(("warnings", warnings))
    if job.get("status") == "completed":
        _inbox.put(("frames", (job_id, cli.download(command, job_id))))
    elif job.get("status") == "canceled":
        _inbox.put(("error", (job_id, "The render was canceled.")))
    else:
        failed = job.get("failedReason") or {}
        _inbox.put(("error", (job_id, cli.one_line("The render failed: %s" % (failed.get("message") or failed.get("name") or "the server gave no reason")))))


def send(scene):
    """Hands the saved scene to the running app, else validates it through the command (then review)."""
    state.__init__()
    state.phase = "sending"
    state.scene = scene
    state.message = "Sending %s\u2026" % os.path.basename(scene)
    _work(_send, scene, cli_path_setting())


def start():
    """Renders the reviewed scene and follows it."""
    state.phase = "starting"
    state.message = "Starting the render\u2026"
    _work(_start, state.command, state.scene)


def _apply(kind, value):
    if kind in ("error", "progress", "frames") and isinstance(value, tuple):
        if value[0] != state.job_id:
            return  # about a job the panel no longer shows
        value = value[1:] if len(value) > 2 else value[1]
    if kind == "error":
        state.phase = "ended" if state.job_id else "idle"
        state.message = value
        _report("ERROR", value)
    elif kind == "app":
        state.phase = "app"
        state.job_id = ("app:" + value) if value else None
        state.message = "Sent to Renderdrop: review it there."
        _report("INFO", state.message)
    elif kind == "command":
        state.command = value
    elif kind == "review":
        state.phase = "review"
        state.review = value
        state.job_id = value.get("jobId")
        state.message = ""
    elif kind == "started":
        state.phase = "rendering"
        state.job_id = value
        state.render_started = time.time()
        state.message = ""
    elif kind == "progress":
        state.job_status, state.done, state.total, state.seconds_left = value
        if state.phase == "app" and state.job_status in ("booting", "rendering", "finalizing"):
            state.phase = "rendering"
    elif kind == "preview":
        state.preview_path = value
        state.preview_version += 1
    elif kind == "warnings":
        for level, line in _warnings_to_tell(value):
            _report(level, line)
    elif kind == "frames":
        state.phase = "completed"
        state.frames_dir = value
        state.message = "Rendered: %d frames in %s" % (state.total, value)
        _report("INFO", state.message)


def warning_lines(warnings):
    """The job's warnings ({code, message}, as `submit --json` and `status --json` give them) as console lines."""
    lines = []
    for warning in warnings or []:
        message = cli.one_line(warning.get("message") or warning.get("code") or "")
        if message:
            lines.append(("Renderdrop note: " if warning.get("code") == "python-runs" else "Renderdrop warning: ") + message)
    return lines


def _warnings_to_tell(warnings):
    """The job's warnings not yet told for this submission, each with its report level (notes are INFO)."""
    told = []
    for warning in warnings or []:
        message = cli.one_line(warning.get("message") or warning.get("code") or "")
        if not message or message in state.warnings_told:
            continue
        state.warnings_told.add(message)
        told.append(("INFO" if warning.get("code") == "python-runs" else "WARNING", message))
    return told


def _report(level, line):
    """Puts one line in Blender's info area; the status bar shows it too."""
    wm = bpy.context.window_manager
    window = wm.windows[0] if wm and len(wm.windows) else None
    try:
        if window is None:
            bpy.ops.renderdrop.report(level=level, message=line)
            return
        with bpy.context.temp_override(window=window, screen=window.screen):
            bpy.ops.renderdrop.report("INVOKE_DEFAULT", level=level, message=line)
    except (RuntimeError, TypeError):
        print(line)


def _pump():
    changed = False
    while True:
        try:
            kind, value = _inbox.get_nowait()
        except queue.Empty:
            break
        _apply(kind, value)
        changed = True
    if changed:
        _redraw()
    return 0.25 if busy() or _following or not _inbox.empty() else None


def _redraw():
    """Redraws the panel, and the status bar (a global area, which only a status change redraws)."""
    wm = bpy.context.window_manager
    for window in wm.windows if wm else ():
        for area in window.screen.areas:
            if area.type == "PROPERTIES":
                area.tag_redraw()
        try:
            with bpy.context.temp_override(window=window):
                window.workspace.status_text_set_internal(None)
        except (AttributeError, RuntimeError, TypeError):
            pass


def status_text():
    """The status bar's words while a job is followed, or ''."""
    if state.phase == "rendering":
        if not state.total:
            return "Renderdrop: %s" % (state.job_status or "starting")
        left = ""
        if state.seconds_left:
            minutes = int(state.seconds_left // 60)
            left = ", %s left" % ("%d min" % minutes if minutes else "%d s" % max(1, int(state.seconds_left)))
        return "Renderdrop: %d/%d frames%s" % (state.done, state.total, left)
    if state.phase in ("sending", "starting"):
        return state.message
    return ""
