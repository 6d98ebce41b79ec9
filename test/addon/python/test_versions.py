import ast
import os
import tomllib

HERE = os.path.dirname(__file__)
ADDON = os.path.join(HERE, "..", "..", "..", "addon", "renderdrop_blender")


def _bl_info():
    tree = ast.parse(open(os.path.join(ADDON, "__init__.py"), encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "bl_info" for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError("no bl_info")


def test_the_extension_manifest_and_bl_info_carry_one_version():
    with open(os.path.join(ADDON, "blender_manifest.toml"), "rb") as f:
        manifest = tomllib.load(f)
    info = _bl_info()
    assert manifest["version"] == ".".join(str(part) for part in info["version"])
    assert manifest["schema_version"] == "1.0.0"
    assert manifest["type"] == "add-on"
    assert manifest["blender_version_min"] >= "4.2.0"
    assert info["blender"] == (3, 3, 0)
    assert all(len(text) <= 64 for text in manifest["permissions"].values())
    assert manifest["license"] and all(item.startswith("SPDX:") for item in manifest["license"])
