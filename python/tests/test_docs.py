"""The Python examples of README.md's "Python, Spark and Dask" section and of docs/python.md run
as written (the engines' lines, which need a cluster's DataFrame, are checked against the
engine modules' functions instead)."""

import ast
import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, re.S)


def readme_blocks():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python, Spark and Dask\n"):]
    section = section[:section.index("\n## ", 1)]
    blocks = python_blocks(section)
    assert len(blocks) == 2
    return blocks


def test_readme_example():
    namespace = {}
    exec(readme_blocks()[0], namespace)
    labels = namespace["labels"]
    assert labels.shape == (1000,) and labels.dtype == np.int32


def test_readme_engines_example():
    """The engines' lines (which need a Spark or Dask DataFrame): valid Python, and every call
    is to a function of geocluster_hdbscan.spark or .dask taking the keywords given."""
    block = readme_blocks()[1]
    calls = [node for node in ast.walk(ast.parse(block)) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)]
    modules = {"gcs": "spark.py", "gcd": "dask.py"}
    assert {call.func.value.id for call in calls} == set(modules)
    for call in calls:
        source = (ROOT / "python" / "geocluster_hdbscan" / modules[call.func.value.id]).read_text()
        functions = {f.name: f for f in ast.parse(source).body if isinstance(f, ast.FunctionDef)}
        function = functions[call.func.attr]
        names = {a.arg for a in function.args.args + function.args.kwonlyargs}
        takes_more = function.args.kwarg is not None
        for keyword in call.keywords:
            assert keyword.arg in names or takes_more, (call.func.attr, keyword.arg)
        assert "algorithm" in names and "tile_size" in names


@pytest.mark.parametrize("index", range(len(python_blocks((ROOT / "docs" / "python.md").read_text()))))
def test_docs_examples(index, capsys):
    block = python_blocks((ROOT / "docs" / "python.md").read_text())[index]
    namespace = {}
    exec(block, namespace)
    out = capsys.readouterr().out
    if "PinIndex" not in block:
        assert "clusters" in out
        return
    # What the comments say: a FeatureCollection in the box, one page of the largest pin's
    # listings, its parts, filtered pins over fewer listings, nearby listings by distance.
    view, top, page = namespace["view"], namespace["top"], namespace["page"]
    assert view["type"] == "FeatureCollection" and f"{len(view['features'])} pins" in out
    assert all(126.98 <= f["geometry"]["coordinates"][0] <= 127.02 for f in view["features"])
    assert len(page["leaves"]) == min(50, top["count"]) and (page["next"] is None) == (top["count"] <= 50)
    assert sum(f["properties"]["count"] for f in namespace["parts"]["features"]) == top["count"]
    count = lambda fc: sum(f["properties"]["count"] for f in fc["features"])
    assert 0 < count(namespace["cheap"]) < count(namespace["index"].pins(13))
    distances = [item["distance_m"] for item in namespace["near"]["listings"]]
    assert distances == sorted(distances) and all(d <= 500 for d in distances)
