"""`make demo`: the three planning tasks on both bundled regions, through the QGIS algorithms.

Steps (one progress line each, with its seconds): the city model of every region through
``qgis_process.bin run cityplanner:buildcitymodel`` (in-process processing.run when
qgis_process fails, saying why); per region × task: Build instance, Solve with the default
method and each heuristic (each plan audited on the map: the FLAGS output), Evaluate plan on
the default plan (its score must equal Solve's);
one GeoPackage per region with every layer, PNG maps rendered by QGIS with the plugin's
styles (the city model, its spatial units, one per task), and report.html. Exit 1 with one line on failure.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
import cityplanner_pkg  # noqa: E402  (scripts/ is on sys.path when this file runs)

cityplanner_pkg.load()
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from cityplanner.plugin.tasks import TASKS, spec  # noqa: E402  (after the package is loaded)

METHODS = ("greedy", "grasp", "sa", "alns", "default")   # default last: the workspace keeps its plan
ALG_METHODS = ("default", "greedy", "grasp", "sa", "alns", "milp")   # the METHOD enum order
CITY_OUTPUTS = ("FACES", "OUTPUT_ROADS", "JUNCTIONS", "DEMAND")


T0 = time.perf_counter()
TIMINGS: list[dict] = []   # one row per step: the report's timing table


def log(msg: str, since: float | None = None) -> None:
    """A progress line: total elapsed, the message and, for a finished step, its own seconds."""
    step = "" if since is None else f" ({time.perf_counter() - since:.1f} s)"
    print(f"[{time.perf_counter() - T0:6.1f}s] {msg}{step}", flush=True)
    if since is not None:
        TIMINGS.append({"step": msg, "seconds": round(time.perf_counter() - since, 2)})


def start_qgis():
    from qgis.core import QgsApplication

    app = QgsApplication([], False)
    app.initQgis()
    sys.path.append("/usr/share/qgis/python/plugins")  # QGIS's own processing package
    from processing.core.Processing import Processing

    Processing.initialize()
    plugin = cityplanner_pkg.load().classFactory(None)
    plugin.initProcessing()
    if plugin.provider is None:
        raise RuntimeError("the cityplanner provider did not load (missing dependencies?)")
    return app, plugin


def run_alg(alg: str, params: dict) -> dict:
    import processing
    from qgis.core import QgsProcessingFeedback

    return processing.run(f"cityplanner:{alg}", params, feedback=QgsProcessingFeedback())


def city_via_qgis_process(pbf: Path, outs: dict[str, Path]) -> str | None:
    """Run buildcitymodel in qgis_process.bin; None on success, else why it failed."""
    # paths travel as bash's positional arguments ("$@"), never inside the script text, so a
    # folder name with spaces or shell characters stays one argument and is never run
    script = "source scripts/qgis_env.sh && exec qgis_process.bin run cityplanner:buildcitymodel -- \"$@\""
    args = [f"INPUT={pbf}", *(f"{k}={v}" for k, v in outs.items())]
    try:
        p = subprocess.run(["bash", "-c", script, "demo", *args], cwd=ROOT, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=240)
    except subprocess.TimeoutExpired:
        return "qgis_process timed out after 240 s"
    if p.returncode != 0 or not all(v.exists() for v in outs.values()):
        lines = [ln for ln in (p.stderr + p.stdout).splitlines() if ln.strip()]
        return f"qgis_process exit {p.returncode}: {lines[-1] if lines else 'no output'}"
    return None


def copy_layer(src: Path, gpkg: Path, name: str) -> None:
    from qgis.core import QgsCoordinateTransformContext, QgsVectorFileWriter, QgsVectorLayer

    lyr = QgsVectorLayer(str(src), name, "ogr")
    opts = QgsVectorFileWriter.SaveVectorOptions()
    opts.driverName = "GPKG"
    opts.layerName = name
    opts.actionOnExistingFile = (QgsVectorFileWriter.ActionOnExistingFile.CreateOrOverwriteLayer if gpkg.exists()
                                 else QgsVectorFileWriter.ActionOnExistingFile.CreateOrOverwriteFile)
    err, msg, *_ = QgsVectorFileWriter.writeAsVectorFormatV3(lyr, str(gpkg), QgsCoordinateTransformContext(), opts)
    if err != QgsVectorFileWriter.WriterError.NoError:
        raise RuntimeError(f"writing layer {name} to {gpkg.name}: {msg}")


def styled(path: Path, style: str, name: str):
    from qgis.core import QgsVectorLayer

    from cityplanner.plugin.qgis_io.maps import apply_style

    lyr = QgsVectorLayer(str(path), name, "ogr")
    if not lyr.isValid():
        raise RuntimeError(f"cannot open {path}")
    apply_style(lyr, style)
    return lyr


def region_city(region: str, pbf: Path, stage: Path, use_qgis_process: bool) -> tuple[dict[str, Path], str]:
    """The city layers of ``region`` and which route built them."""
    outs = {k: stage / f"{region}_city_{k.lower()}.gpkg" for k in CITY_OUTPUTS}
    t = time.perf_counter()
    why = city_via_qgis_process(pbf, outs) if use_qgis_process else "qgis_process disabled (--no-qgis-process)"
    if why is None:
        log(f"{region}: city model built by qgis_process.bin", t)
        return outs, "qgis_process.bin"
    log(f"{region}: {why}; building the city model in-process instead")
    t = time.perf_counter()
    run_alg("buildcitymodel", {"INPUT": str(pbf), **{k: str(v) for k, v in outs.items()}})
    log(f"{region}: city model built by processing.run", t)
    return outs, f"processing.run ({why})"


def run_task(region: str, task: str, pbf: Path, out: Path, stage: Path, limits: dict[str, float],
             city: dict[str, Path]) -> dict:
    ws = out / "workspaces" / f"{region}-{task}"
    cands = stage / f"{region}_{task}_candidates.gpkg"
    network = stage / f"{region}_{task}_network.gpkg"
    t = time.perf_counter()
    # MODE 1 = benchmark: the demo shows the paper's recipe on the bundled regions (docs/modes.md)
    b = run_alg(f"build{task}instance", {"INPUT": str(pbf), "WORKSPACE": str(ws), "CANDIDATES": str(cands), "MODE": 1,
                                         **({"NETWORK": str(network)} if task == "road" else {})})
    log(f"{region} {task}: build instance {b['INSTANCE_ID']} with {b['CANDIDATE_COUNT']:.0f} candidates", t)
    rows, layers = [], {f"{task}_candidates": cands}
    if task == "road":
        layers["road_network"] = network
    for method in METHODS:
        plan = stage / f"{region}_{task}_{method}.gpkg"
        t = time.perf_counter()
        r = run_alg(f"solve{task}", {"WORKSPACE": str(ws), "METHOD": ALG_METHODS.index(method),
                                     "TIME_LIMIT": limits[method], "SEED": 42, "OUTPUT": str(plan),
                                     "REPORT": str(out / "reports" / f"{region}-{task}-{method}.html")})
        rows.append({"method": method, "valid": r["VALID"], "score": r["SCORE"], "upper_bound": r["UPPER_BOUND"],
                     "seconds": round(time.perf_counter() - t, 2), "status": r["STATUS"],
                     "selected": layer_count(plan), "flags": len(json.loads(r["FLAGS"])["flags"])})
        layers[f"{task}_plan_{method}"] = plan
        log(f"{region} {task} solve {method}: valid={r['VALID']} score={r['SCORE']} audit flags={rows[-1]['flags']}", t)
    bound = rows[-1]["upper_bound"]
    for row in rows:
        row["gap"] = (round((bound - row["score"]) / max(abs(bound), 1e-9), 4) + 0.0  # + 0.0: no "-0.0"
                      if bound is not None and row["valid"] and row["score"] is not None else None)
    evaluation = stage / f"{region}_{task}_evaluation.gpkg"
    t = time.perf_counter()
    e = run_alg("evaluateplan", {"INPUT": str(layers[f"{task}_plan_default"]), "WORKSPACE": str(ws),
                                 "OUTPUT": str(evaluation)})
    if e["SCORE"] != rows[-1]["score"]:
        raise RuntimeError(f"{region} {task}: Evaluate plan gives {e['SCORE']}, Solve gave {rows[-1]['score']}")
    layers[f"{task}_evaluation"] = evaluation
    log(f"{region} {task}: evaluate plan agrees (score {e['SCORE']}, valid {e['VALID']})", t)
    from cityplanner.plugin.qgis_io.maps import render_png

    png = out / "maps" / f"{region}-{task}.png"
    t = time.perf_counter()
    best = rows[-1]
    base = (styled(network, "city_roads", "existing network (removed links absent)") if task == "road"
            else styled(city["OUTPUT_ROADS"], "city_roads", "roads"))
    faces = styled(city["FACES"], "city_faces", "land units (blocks less road reserve and water)")
    render_png([styled(evaluation, f"plan_{task}", "plan (default method)"),
                styled(cands, f"candidates_{task}", "candidates"), base, faces], png,
               f"{region.title()}: {spec(task).title}, default plan",
               f"score {best['score']:.4f}, bound {fmt_num(bound)}, gap {fmt_num(best['gap'])}; "
               f"{best['selected']} of {int(b['CANDIDATE_COUNT'])} candidates selected; valid {e['VALID']}; "
               f"audit flags {best['flags']}",
               extent=faces.extent())
    log(f"{region} {task}: map {png.relative_to(out)}", t)
    return {"task": task, "instance_id": b["INSTANCE_ID"], "candidates": int(b["CANDIDATE_COUNT"]),
            "rows": [rows[-1], *rows[:-1]], "map": png.relative_to(out).as_posix(), "layers": layers}


def fmt_num(v) -> str:
    return "–" if v is None else f"{v:.4f}"


def layer_count(path: Path) -> int:
    from qgis.core import QgsVectorLayer

    return QgsVectorLayer(str(path), "n", "ogr").featureCount()


def city_map(region: str, pbf: Path, city: dict[str, Path], out: Path) -> Path:
    """The region's city model map (its layers are freed on return: QGIS must outlive them)."""
    from cityplanner.plugin.qgis_io.maps import render_png

    png = out / "maps" / f"{region}-city.png"
    t = time.perf_counter()
    faces = styled(city["FACES"], "city_faces", "land units (blocks less road reserve)")
    render_png([styled(city["DEMAND"], "city_demand", "residents per block"),
                styled(city["OUTPUT_ROADS"], "city_roads", "drivable roads"), faces], png,
               f"{region.title()}: city model", f"from {pbf.name}", extent=faces.extent())
    log(f"{region}: map {png.relative_to(out)}", t)
    return png


def units_map(region: str, city: dict[str, Path], out: Path, stage: Path) -> Path:
    """The spatial units over the roads, with the water / non-buildable masks and the study area."""
    from cityplanner.plugin.city import load_city
    from cityplanner.plugin.qgis_io.maps import render_png

    import geopandas as gpd

    png = out / "maps" / f"{region}-units.png"
    t = time.perf_counter()
    core = load_city(region)
    masks, extent = stage / f"{region}_masks.gpkg", stage / f"{region}_extent.gpkg"
    core.masks.to_file(masks, driver="GPKG", engine="pyogrio")
    gpd.GeoDataFrame({"name": ["study area"]}, geometry=[core.extent], crs=core.crs).to_file(
        extent, driver="GPKG", engine="pyogrio")
    units = styled(city["FACES"], "city_units", "land units")
    layers = [styled(extent, "city_extent", "study area (what the streets enclose)"),
              units, styled(city["OUTPUT_ROADS"], "city_roads", "drivable roads")]
    if len(core.masks):
        layers.append(styled(masks, "city_masks", "masked"))
    render_png(layers, png, f"{region.title()}: spatial units",
               f"{len(core.faces)} units: blocks less road reserve, water, non-buildable land",
               extent=units.extent())
    log(f"{region}: map {png.relative_to(out)}", t)
    return png


def write_report(out: Path, results: dict) -> Path:
    from cityplanner.plugin.qgis_io.reports import page, table
    from cityplanner.plugin.util.io import atomic_write_text

    cols = ("method", "valid", "score", "upper_bound", "gap", "seconds", "selected", "flags", "status")
    body = ["<p>flags: audit flags of the plan (<code>python -m plugin audit</code>; the Solve "
            "algorithm's FLAGS output): sites on the road reserve, water or outside the study area, "
            "sites narrower or smaller than their type needs, stations away from the network, new "
            "links through buildings or water. 0 is the bar.</p>"]
    for region, res in results["regions"].items():
        body.append(f"<h2>{region}</h2><p>City model: {res['city_via']}.</p><img src='{res['city_map']}'>"
                    f"<img src='{res['units_map']}'>")
        for t in res["tasks"]:
            body.append(f"<h3>{region} — {spec(t['task']).title} ({t['instance_id']}, {t['candidates']} candidates)</h3>"
                        + table(t["rows"], cols) + f"<img src='{t['map']}'>")
    body.append("<h2>Timings</h2>" + table(results["timings"], ("step", "seconds")))
    return atomic_write_text(out / "report.html", page("CityPlanner demo", "".join(body)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="demo-output")
    ap.add_argument("--regions", default="helsinki,kotka")
    ap.add_argument("--tasks", default=",".join(TASKS))
    ap.add_argument("--default-limit", type=float, default=20.0, help="seconds for the default method")
    ap.add_argument("--heuristic-limit", type=float, default=5.0, help="seconds for each heuristic")
    ap.add_argument("--no-qgis-process", action="store_true", help="build the city model in-process")
    args = ap.parse_args(argv)
    out = (ROOT / args.out) if not Path(args.out).is_absolute() else Path(args.out)
    limits = {m: args.heuristic_limit for m in METHODS} | {"default": args.default_limit}
    t0 = time.perf_counter()
    try:
        from cityplanner.plugin.city import REGIONS

        app, _plugin = start_qgis()
        stage = out / ".staging"
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir(parents=True)
        results = {}
        for region in args.regions.split(","):
            if region not in REGIONS:
                raise ValueError(f"unknown region {region} (choose {', '.join(REGIONS)})")
            pbf = REGIONS[region]
            city, via = region_city(region, pbf, stage, not args.no_qgis_process)
            city_png = city_map(region, pbf, city, out)
            units_png = units_map(region, city, out, stage)
            tasks = [run_task(region, t, pbf, out, stage, limits, city) for t in args.tasks.split(",")]
            gpkg = stage / f"{region}.gpkg"
            t = time.perf_counter()
            for key, path in city.items():
                copy_layer(path, gpkg, key.lower().replace("output_", ""))
            for task in tasks:
                for name, path in task.pop("layers").items():
                    copy_layer(path, gpkg, name)
            os.replace(gpkg, out / f"{region}.gpkg")
            log(f"{region}: {region}.gpkg written", t)
            results[region] = {"city_via": via,
                               "city_map": city_png.relative_to(out).as_posix(),
                               "units_map": units_png.relative_to(out).as_posix(), "tasks": tasks}
        from cityplanner.plugin.util.io import atomic_write_json

        log(f"demo done in {time.perf_counter() - t0:.0f} s")
        total = {"step": "total", "seconds": round(time.perf_counter() - t0, 1)}
        report = {"regions": results, "timings": [*TIMINGS, total]}
        atomic_write_json(out / "results.json", report)
        log(f"report: {write_report(out, report)}")
        shutil.rmtree(stage, ignore_errors=True)
        app.exitQgis()
        return 0
    except Exception as e:  # noqa: BLE001 - the demo's contract: one line, non-zero exit
        print(f"demo failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
