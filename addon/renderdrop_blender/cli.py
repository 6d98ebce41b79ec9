"""Running the `renderdrop` command and turning what it says into results and one-line errors."""

import json
import os
import re
import subprocess
import sys

from . import locate

NOT_FOUND = "Renderdrop not found: install the Renderdrop app, or set the renderdrop command in the add-on's preferences."
NO_KEY = "Renderdrop has no key for this server: add one in Renderdrop's Settings, or set RENDERDROP_API_KEY."
KEY_REFUSED = "The server refused Renderdrop's key: update it in Renderdrop's Settings."
NOT_SAVED = "Save the scene first: the farm renders the file on disk."
UNSAVED_CHANGES = "The scene has unsaved changes: save it first, the farm renders the file on disk."


def not_found():
    """The line for a Renderdrop that could not be found, naming what was tried."""
    if not locate.tried:
        return NOT_FOUND
    return NOT_FOUND[:-1] + ". Tried: " + "; ".join(locate.tried) + "."


class RenderdropError(Exception):
    """A failure to show as one line."""

    def __init__(self, line):
        super().__init__(line)
        self.line = line


def one_line(text, limit=300):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _run(command, args, timeout):
    flags = subprocess.CREATE_NO_WINDOW if sys.platform == "win32" else 0
    env = dict(os.environ, NO_COLOR="1", **locate.command_env(command))
    try:
        done = subprocess.run(
            [*command, *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=timeout,
            env=env,
            creationflags=flags,
        )
    except (OSError, ValueError):
        raise RenderdropError(NOT_FOUND) from None
    except subprocess.TimeoutExpired:
        raise RenderdropError("Renderdrop did not answer in time; try again.") from None
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def _json_of(stdout):
    start = stdout.find("{")
    if start < 0:
        return None
    try:
        return json.loads(stdout[start:])
    except ValueError:
        return None


def _last_line(stderr):
    lines = [line for line in stderr.splitlines() if line.strip()]
    if not lines:
        return "Renderdrop stopped without saying why."
    last = lines[-1].strip()
    return last[len("renderdrop: "):] if last.startswith("renderdrop: ") else last


def error_line(error):
    """The one line for an error the command reported ({kind, code?, message})."""
    kind = error.get("kind")
    if error.get("code") == "no-local-node":
        return one_line(error.get("message") or NO_KEY)
    if kind == "config" or error.get("code") == "no-api-key":
        return NO_KEY
    if kind == "auth":
        return KEY_REFUSED
    return one_line("Renderdrop: " + (error.get("message") or "unknown error"))


def _outcome(_code, stdout, stderr):
    data = _json_of(stdout)
    if data is None:
        raise RenderdropError(one_line("Renderdrop: " + _last_line(stderr)))
    if isinstance(data.get("error"), dict):
        raise RenderdropError(error_line(data["error"]))
    submissions = data.get("submissions") or []
    if not submissions:
        raise RenderdropError(one_line("Renderdrop: " + _last_line(stderr)))
    outcome = submissions[0]
    if outcome.get("state") == "failed":
        said = (outcome.get("error") or {}).get("message") or "the server gave no reason"
        reason = one_line(re.sub(r"^Job \S+ failed: (\w+ \([\w-]+\): )?", "", said))
        if outcome.get("step") in ("render-requested", "completed", "downloaded"):
            raise RenderdropError("The render failed: " + reason)
        raise RenderdropError("The scene failed validation: " + reason)
    if outcome.get("error"):
        raise RenderdropError(error_line(outcome["error"]))
    return outcome


def submit(command, scene, validate_only=False, fresh=True, wait=False, download=None, timeout=None):
    """Sends the scene: with `validate_only` it stops once validated (the outcome holds `review`), else
    it renders (and with `wait`/`download` follows the job to the end). `fresh` makes a new submission;
    without it the one of this very file waiting for its go-ahead is continued. Returns the outcome."""
    args = ["submit", scene, "--json", "--validate-only" if validate_only else "--yes"]
    if fresh:
        args.append("--new")
    if download:
        args += ["--download", download]
    elif wait:
        args.append("--wait")
    return _outcome(*_run(command, args, timeout))


def status(command, job_id):
    """The job and its progress ({job, progress})."""
    code, stdout, stderr = _run(command, ["status", job_id, "--json"], 60)
    data = _json_of(stdout)
    if code != 0 or data is None:
        raise RenderdropError(one_line("Renderdrop: " + _last_line(stderr)))
    return data


def watch(command, job_id):
    """Follows one job through one `renderdrop watch <id> --json` process: yields each event it prints
    (status and progress events carry the render clock), until the job ends. The caller may close the
    generator to stop watching; the process is ended then."""
    flags = subprocess.CREATE_NO_WINDOW if sys.platform == "win32" else 0
    env = dict(os.environ, NO_COLOR="1", **locate.command_env(command))
    try:
        process = subprocess.Popen([*command, "watch", job_id, "--json"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, creationflags=flags)
    except (OSError, ValueError):
        raise RenderdropError(NOT_FOUND) from None
    try:
        for raw in process.stdout:
            try:
                event = json.loads(raw.decode("utf-8", "replace"))
            except ValueError:
                continue
            if isinstance(event, dict):
                yield event
        stderr = process.stderr.read().decode("utf-8", "replace")
        if process.wait() not in (0, 3) and stderr.strip():
            raise RenderdropError(one_line("Renderdrop: " + _last_line(stderr)))
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait()


def download(command, job_id):
    """Downloads the job's frames; returns the folder they are in."""
    code, stdout, stderr = _run(command, ["download", job_id, "--json"], None)
    data = _json_of(stdout)
    if code != 0 or data is None:
        raise RenderdropError(one_line("Renderdrop: " + _last_line(stderr)))
    return data.get("dir") or data.get("folder") or data.get("downloadedTo")


def open_app(command):
    """Opens Renderdrop in the browser (`renderdrop web --open`), left running on its own."""
    flags = subprocess.CREATE_NO_WINDOW if sys.platform == "win32" else 0
    try:
        subprocess.Popen([*command, "web", "--open"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, creationflags=flags, start_new_session=sys.platform != "win32")
    except OSError:
        raise RenderdropError(NOT_FOUND) from None
