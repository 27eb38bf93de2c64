"""The native module's type stubs name what the module has, method for method."""

import ast
import pathlib

import grape
from grape import _grape

STUB = pathlib.Path(grape.__file__).with_name("_grape.pyi")


def test_stubs_match_the_native_module():
    tree = ast.parse(STUB.read_text())
    declared = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            declared.add(node.name)
            assert callable(getattr(_grape, node.name)), node.name
        elif isinstance(node, ast.ClassDef):
            declared.add(node.name)
            cls = getattr(_grape, node.name)
            for member in node.body:
                if isinstance(member, ast.FunctionDef):
                    assert hasattr(cls, member.name), f"{node.name}.{member.name}"
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if not node.target.id.startswith("_Path"):
                declared.add(node.target.id)
    public = {n for n in dir(_grape) if not n.startswith("_")}
    assert public <= declared, public - declared
    assert (STUB.parent / "py.typed").exists()


def test_public_api_is_documented():
    for name in grape.__all__:
        obj = getattr(grape, name)
        assert getattr(obj, "__doc__", None), name
