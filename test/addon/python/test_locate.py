import json
import os

from renderdrop_blender import cli, locate


def test_says_what_it_tried_when_renderdrop_is_nowhere(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(locate, "MANIFEST", str(tmp_path / "missing.json"))
    assert locate.find_cli("") is None
    assert cli.not_found() == (
        "Renderdrop not found: install the Renderdrop app, or set the renderdrop command in the add-on's preferences. "
        "Tried: renderdrop on PATH (not there); the command of the Renderdrop that installed the add-on (no install record)."
    )


def test_runs_the_command_the_app_recorded_with_the_environment_it_needs(tmp_path, monkeypatch):
    program = tmp_path / "Renderdrop"
    program.write_text("")
    record = tmp_path / ".renderdrop-install.json"
    record.write_text(json.dumps({"cli": [str(program), "cli.js"], "cliEnv": {"ELECTRON_RUN_AS_NODE": "1"}}))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr(locate, "MANIFEST", str(record))
    command = locate.find_cli("")
    assert command == [str(program), "cli.js"]
    assert locate.command_env(command) == {"ELECTRON_RUN_AS_NODE": "1"}
    assert locate.command_env(["renderdrop"]) == {}


def test_a_preference_that_names_no_file_is_said_so(tmp_path):
    assert locate.find_cli(str(tmp_path / "nowhere")) is None
    assert locate.tried == ["the add-on's preferences: %s (no such file)" % os.path.abspath(str(tmp_path / "nowhere"))]
