import json
import subprocess
import threading
import time

import pytest

import grape
from conftest import grape_bin, need


def test_evaluate_matches_the_cli_byte_for_byte(demo, tmp_path):
    cli_out, py_out = tmp_path / "cli", tmp_path / "py"
    subprocess.run(
        [
            grape_bin(), "eval",
            "--dataset", str(demo / "questions.jsonl"),
            "--predictions", str(demo / "predictions.jsonl"),
            "--graph", str(demo / "graph.json"),
            "--k", "3", "--out", str(cli_out),
        ],
        check=True,
        capture_output=True,
    )
    report = grape.evaluate(
        demo / "questions.jsonl",
        demo / "predictions.jsonl",
        demo / "graph.json",
        k=3,
        out=py_out,
        progress=False,
    )
    cli_report = (cli_out / "report.json").read_bytes()
    assert (py_out / "report.json").read_bytes() == cli_report
    assert report.json().encode() == cli_report
    assert (py_out / "report.md").read_bytes() == (cli_out / "report.md").read_bytes()
    assert report.examples == 52 and report.scored == 52
    assert set(report.overall) >= {"ex", "pass_at_1", "pass_at_3", "jaro_winkler"}
    assert report.overall["pass_at_3"] >= report.overall["pass_at_1"]


def test_report_views(demo):
    g = grape.Graph.load(demo / "graph.json")
    report = grape.evaluate(
        demo / "questions.jsonl", demo / "predictions.jsonl", g, k=3, progress=False
    )
    assert "query_type" in report.fields()
    by_type = report.by("query_type")
    assert by_type and all("ex" in m for m in by_type.values())
    assert sum(report.counts["query_type"].values()) == report.scored
    with pytest.raises(KeyError):
        report.by("no_such_field")
    assert len(report.records) == 52 and report.records[0]["id"] == "d01"
    pd = need("pandas")
    df = report.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == 52
    assert {"id", "gold", "prediction", "ex", "query_type"} <= set(df.columns)
    assert df["ex"].mean() == pytest.approx(report.overall["ex"])
    assert list(report.by_frame("query_type").index) == sorted(by_type)


def test_predictions_in_memory_equal_the_file(demo):
    lines = [json.loads(l) for l in (demo / "predictions.jsonl").read_text().splitlines() if l]
    from_file = grape.evaluate(
        demo / "questions.jsonl", demo / "predictions.jsonl", demo / "graph.json", progress=False
    )
    from_list = grape.evaluate(demo / "questions.jsonl", lines, demo / "graph.json", progress=False)
    from_dict = grape.evaluate(
        demo / "questions.jsonl",
        {p["id"]: p["candidates"] for p in lines},
        demo / "graph.json",
        progress=False,
    )
    assert from_list.json() == from_file.json() == from_dict.json()


def test_bad_inputs_name_the_file_and_record(demo, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "d01", "cypher": "RETURN 1"}\nnot json\n')
    with pytest.raises(grape.DataError) as e:
        grape.evaluate(demo / "questions.jsonl", bad, demo / "graph.json", progress=False)
    assert "bad.jsonl:2" in str(e.value)
    with pytest.raises(grape.DataError) as e:
        grape.evaluate(tmp_path / "none.jsonl", bad, demo / "graph.json", progress=False)
    assert "none.jsonl" in str(e.value)


def test_a_run_resumes_from_its_records(demo, tmp_path):
    out = tmp_path / "run"
    first = grape.evaluate(
        demo / "questions.jsonl", demo / "predictions.jsonl", demo / "graph.json",
        out=out, progress=False,
    )
    lines = (out / "examples.jsonl").read_text().splitlines()
    (out / "examples.jsonl").write_text("\n".join(lines[:10]) + "\n" + lines[10][:20])
    again = grape.evaluate(
        demo / "questions.jsonl", demo / "predictions.jsonl", demo / "graph.json",
        out=out, progress=False,
    )
    assert again.json() == first.json()
    assert len((out / "examples.jsonl").read_text().splitlines()) == 52


def test_evaluate_releases_the_gil(demo):
    """While evaluate runs on grape's worker threads, other Python threads keep running."""
    g = grape.Graph.load(demo / "graph.json")
    state = {"ticks": 0, "start": None, "end": None, "elapsed": 0.0}
    done = threading.Event()

    def run():
        try:
            state["start"] = state["ticks"]
            t0 = time.perf_counter()
            for _ in range(3):
                grape.evaluate(
                    demo / "questions.jsonl", demo / "predictions.jsonl", g, k=3,
                    progress=False, workers=1,
                )
            state["elapsed"] = time.perf_counter() - t0
            state["end"] = state["ticks"]
        finally:
            done.set()

    t = threading.Thread(target=run)
    t.start()
    while not done.is_set():
        state["ticks"] += 1
    t.join()
    progressed = state["end"] - state["start"]
    # Holding the GIL for the whole run would leave this thread a handful of switch intervals
    # (5 ms each); released, it counts all along.
    assert progressed > 1000, (progressed, state["elapsed"])


def test_text2cypher_layout_per_database_and_text_only(demo):
    t2c = demo.parent / "text2cypher"
    routed = grape.evaluate(
        t2c / "sample.jsonl", t2c / "predictions.jsonl", graphs=t2c / "graphs", progress=False
    )
    assert routed.scored == 12 and "ex" in routed.overall
    by_id = {r["id"]: r for r in routed.records}
    assert "ex" not in by_id["instance_id_1011"]["metrics"]  # no database: text and validity
    assert by_id["instance_id_1011"]["metrics"]["kg_valid"] == 0.0
    text_only = grape.evaluate(t2c / "sample.csv", t2c / "predictions.jsonl", progress=False)
    assert "ex" not in text_only.overall and text_only.overall["google_bleu"] > 0.5


def test_compare_runs(demo, tmp_path):
    gold = [json.loads(l) for l in (demo / "questions.jsonl").read_text().splitlines() if l]
    perfect = grape.evaluate(
        demo / "questions.jsonl", {g["id"]: g["cypher"] for g in gold}, demo / "graph.json",
        out=tmp_path / "perfect", progress=False,
    )
    grape.evaluate(
        demo / "questions.jsonl", demo / "predictions.jsonl", demo / "graph.json",
        out=tmp_path / "bundled", progress=False,
    )
    assert perfect.overall["ex"] == 1.0
    c = grape.compare(tmp_path / "perfect", tmp_path / "bundled", resamples=500)
    run = c["runs"][0]
    ex = next(m for m in run["metrics"] if m["metric"] == "ex")
    assert run["shared"] == 52 and ex["baseline"] == 1.0 and ex["diff"] < 0
    assert ex["test"] == "mcnemar-exact" and ex["p_value"] < 0.001
    assert len(run["flipped"]["ex"]["lost"]) == ex["discordant"][0] > 0
    with pytest.raises(grape.DataError):
        grape.compare(tmp_path / "perfect", tmp_path / "missing")
    with pytest.raises(ValueError):
        grape.compare(tmp_path / "perfect")
