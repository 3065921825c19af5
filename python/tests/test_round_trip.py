"""Files the CLI writes back (`cluster --append`, `filter`) open as their input opened: pandas,
given the input's own separator, decimal mark and encoding, reads the same values back, and
the appended columns as numbers equal to the label file's."""

import subprocess

import numpy as np
import pandas as pd
import pytest

from conftest import ROOT, cli

LISTINGS = ROOT / "datasets" / "seoul-5k.csv"

# (name, pandas options, CLI input options, how the input is written)
DIALECTS = [
    ("latin1-semicolon-decimal-comma", dict(sep=";", decimal=",", encoding="latin-1"),
     ["--encoding", "latin1", "--decimal-comma"], "Müller-Straße"),
    ("cp949-korean", dict(sep=",", decimal=".", encoding="cp949"), ["--encoding", "cp949"], "역삼동 아파트"),
    ("utf8-bom-tab", dict(sep="\t", decimal=".", encoding="utf-8-sig"), [], "Straße 東京"),
]


def write_input(path, options, street):
    """seoul-5k's first 600 rows with a text column of the dialect's own characters, written in
    the dialect (decimal commas where it has them)."""
    table = pd.read_csv(LISTINGS, nrows=600)
    table.insert(1, "street", [f"{street} {i}" for i in range(len(table))])
    table.to_csv(path, index=False, sep=options["sep"], decimal=options["decimal"], encoding=options["encoding"])
    return table


def run(*args):
    done = subprocess.run([str(cli()), *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.parametrize("name,options,flags,street", DIALECTS, ids=[d[0] for d in DIALECTS])
def test_append_round_trips(tmp_path, name, options, flags, street):
    source = tmp_path / f"{name}.csv"
    table = write_input(source, options, street)
    run("cluster", source, *flags, "--append", "-o", tmp_path / "appended.csv")
    run("cluster", source, *flags, "-o", tmp_path / "labels.csv")
    back = pd.read_csv(tmp_path / "appended.csv", **options)
    labels = pd.read_csv(tmp_path / "labels.csv")
    pd.testing.assert_frame_equal(back[table.columns], table)
    assert back["label"].dtype.kind == "i" and back["probability"].dtype.kind == "f"
    np.testing.assert_array_equal(back["label"], labels["label"])
    np.testing.assert_allclose(back["probability"], labels["probability"], atol=1e-10)
    np.testing.assert_allclose(back["outlier_score"], labels["outlier_score"], atol=1e-10)
    raw = (tmp_path / "appended.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") == (options["encoding"] == "utf-8-sig")


@pytest.mark.parametrize("name,options,flags,street", DIALECTS, ids=[d[0] for d in DIALECTS])
def test_filter_round_trips(tmp_path, name, options, flags, street):
    source = tmp_path / f"{name}.csv"
    table = write_input(source, options, street)
    run("filter", source, *flags, "--category", "apartment", "-o", tmp_path / "kept.csv")
    back = pd.read_csv(tmp_path / "kept.csv", **options)
    expected = table[table["category"] == "apartment"].reset_index(drop=True)
    assert len(expected) > 50
    pd.testing.assert_frame_equal(back, expected)


def test_output_encoding_and_bom_for_excel(tmp_path):
    """A Latin-1 file written back as UTF-8 with a byte-order mark (what Excel needs), its
    decimal commas kept."""
    name, options, flags, street = DIALECTS[0]
    source = tmp_path / "in.csv"
    table = write_input(source, options, street)
    run("cluster", source, *flags, "--append", "--output-encoding", "utf-8", "--bom", "-o", tmp_path / "excel.csv")
    assert (tmp_path / "excel.csv").read_bytes().startswith(b"\xef\xbb\xbf")
    back = pd.read_csv(tmp_path / "excel.csv", **dict(options, encoding="utf-8-sig"))
    pd.testing.assert_frame_equal(back[table.columns], table)


def test_a_character_the_encoding_lacks_is_refused(tmp_path):
    source = tmp_path / "in.csv"
    write_input(source, dict(sep=",", decimal=".", encoding="utf-8"), "역삼동")
    done = subprocess.run([str(cli()), "filter", str(source), "--category", "apartment", "--output-encoding", "latin1",
                           "-o", str(tmp_path / "out.csv")], capture_output=True, text=True)
    assert done.returncode != 0
    assert "cannot be written in Latin-1" in done.stderr and "out.csv:2:" in done.stderr
    assert not (tmp_path / "out.csv").exists()
