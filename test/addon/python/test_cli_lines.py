from renderdrop_blender import cli


def test_errors_become_one_line():
    assert cli.error_line({"kind": "config", "code": "no-api-key", "message": "x"}) == cli.NO_KEY
    assert cli.error_line({"kind": "auth", "message": "x"}) == cli.KEY_REFUSED
    said = "The Renderdrop app is not running, and no key is stored for a render node at http://127.0.0.1:8787."
    assert cli.error_line({"kind": "config", "code": "no-local-node", "message": said}) == said
    assert cli.error_line({"kind": "network", "message": "down\nnow"}) == "Renderdrop: down now"
