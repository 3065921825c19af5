"""The Python examples of README.md's "Python" section and of docs/python.md run as written."""

import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def python_blocks(text):
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_readme_example():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python\n"):]
    section = section[:section.index("\n## ", 1)]
    blocks = python_blocks(section)
    assert len(blocks) == 1
    namespace = {}
    exec(blocks[0], namespace)
    labels = namespace["labels"]
    assert labels.shape == (1000,) and labels.dtype == np.int32


@pytest.mark.parametrize("index", range(len(python_blocks((ROOT / "docs" / "python.md").read_text()))))
def test_docs_examples(index, capsys):
    exec(python_blocks((ROOT / "docs" / "python.md").read_text())[index], {})
    assert "clusters" in capsys.readouterr().out
