"""Printing benchmark: prints JSON. Run: .venv/bin/python bench/printing.py [--repeat N]

Side by side, each case in its own subprocess (so peak memory is that case's alone):
- muster_labels_1000: 1,000 Rencounter base labels on the 5/8" sheet (OL1575), through Muster
  (system label text, fitting, template, WeasyPrint);
- weasyprint_bare_1000: a bare WeasyPrint render of the simplest equivalent HTML (inline-block
  labels, two lines of text);
- reportlab_1000: ReportLab drawing the same labels at the same slots (the speed limit);
- muster_cards_90: a 90-card deck of poker cards on A4;
- muster_reference: Rencounter's quick-reference sheet.
Times are the median of `--repeat` renders after one warm-up render (fonts and stylesheets
loaded, as in a running web or worker process), wall clock (the budgets) and CPU time (less
disturbed by other load on the machine); peak memory is the subprocess's max RSS. The report
records the 1-minute load average at the start and the end of the run.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUDGETS = {
    "muster_labels_1000": {"seconds": 1.2, "peak_mib": 200},
    "muster_cards_90": {"seconds": 1.5},
    "muster_reference": {"seconds": 0.5},
}


def _django() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def _names(count: int) -> list[str]:
    ranks = ("Sgt.", "Cpl.", "Pte.", "Lt.", "Capt.")
    surnames = ("Gridley", "Hobbs", "Ashdown", "Tanner", "Fairfax", "Okonkwo", "Lindqvist")
    return [f"{ranks[n % 5]} {surnames[n % 7]} {n}" for n in range(count)]


def muster_labels(count: int) -> Callable[[], bytes]:
    _django()
    from printing.documents import labels_document
    from printing.figures import FigureData
    from printing.labels import SheetOptions
    from printing.render import render_pdf
    from printing.sheets import get_preset
    from rules.system import get_system

    system = get_system("rencounter")
    stats = [
        system.stats.validate({"fire": 5 + n % 6, "melee": 4 + n % 7, "experience": 1 + n % 6})
        for n in range(count)
    ]
    figures = [FigureData(name=name, stats=s) for name, s in zip(_names(count), stats, strict=True)]
    options = SheetOptions(get_preset("OL1575"))

    def run() -> bytes:
        document = labels_document(system, figures, options)
        return render_pdf(document.family, document.parts[0])

    return run


def bare_weasyprint(count: int) -> Callable[[], bytes]:
    import weasyprint

    labels = "".join(f'<div class="l">{name}<br>F 7 M 6</div>' for name in _names(count))
    html = (
        "<style>@page{size:Letter;margin:18.67mm 0 0 13.02mm}body{margin:0;font:5pt sans-serif}"
        ".l{display:inline-block;width:15.88mm;height:15.88mm;margin:0 1.52mm 1.52mm 0;"
        "text-align:center;vertical-align:top}</style>" + labels
    )
    return lambda: weasyprint.HTML(string=html).write_pdf()


def reportlab_labels(count: int) -> Callable[[], bytes]:
    import io

    from reportlab.lib.pagesizes import letter
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    names = _names(count)

    def run() -> bytes:
        buffer = io.BytesIO()
        pdf = canvas.Canvas(buffer, pagesize=letter)
        for n, name in enumerate(names):
            slot = n % 154
            if n and slot == 0:
                pdf.showPage()
            x = (13.02 + (slot % 11) * 17.40 + 7.94) * mm
            y = letter[1] - (18.67 + (slot // 11) * 17.40 + 7.94) * mm
            pdf.setFont("Helvetica-Bold", 5)
            pdf.drawCentredString(x, y + 2.5, name)
            pdf.setFont("Helvetica", 5)
            pdf.drawCentredString(x, y - 3, "F 7 M 6")
            pdf.drawCentredString(x, y - 8.5, "Ex 4")
        pdf.save()
        return buffer.getvalue()

    return run


def muster_cards(count: int) -> Callable[[], bytes]:
    _django()
    from printing.documents import cards_document
    from printing.figures import FigureData
    from printing.render import render_pdf
    from rules.system import get_system

    system = get_system("rencounter")
    weapons = [["matchlock_musket", "sword"], ["long_bow", "axe"], ["javelin", "spear"]]
    figures = [
        FigureData(
            name=name,
            stats=system.stats.validate({"weapons": weapons[n % 3]}),
            rank="Trooper",
            unit="Musketeers",
        )
        for n, name in enumerate(_names(count))
    ]
    options = system.options.validate({})

    def run() -> bytes:
        document = cards_document(system, figures, options, size="poker", page="A4")
        return render_pdf(document.family, document.parts[0])

    return run


def muster_reference(_: int) -> Callable[[], bytes]:
    _django()
    from printing.documents import reference_document
    from printing.render import render_pdf
    from rules.system import get_system

    system = get_system("rencounter")
    options = system.options.validate({})

    def run() -> bytes:
        document = reference_document(system, options, campaign="Autumn League")
        return render_pdf(document.family, document.parts[0])

    return run


CASES: dict[str, tuple[Callable[[int], Callable[[], bytes]], int, int]] = {
    # name: (builder, items, warm-up items)
    "muster_labels_1000": (muster_labels, 1000, 10),
    "weasyprint_bare_1000": (bare_weasyprint, 1000, 10),
    "reportlab_1000": (reportlab_labels, 1000, 10),
    "muster_cards_90": (muster_cards, 90, 2),
    "muster_reference": (muster_reference, 1, 1),
}


def _pages(pdf: bytes) -> int:
    import io

    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def run_case(name: str, repeat: int) -> dict[str, object]:
    """Time one case in this process: one warm-up render, then `repeat` timed renders."""
    builder, items, warm_items = CASES[name]
    builder(warm_items)()  # warm-up: fonts, stylesheets, templates, imports
    run = builder(items)
    times, cpu, pdf = [], [], b""
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        pdf = run()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return {
        "items": items,
        "pages": _pages(pdf),
        "seconds_median": round(statistics.median(times), 3),
        "seconds_all": [round(t, 3) for t in times],
        # CPU time of this process: what the render costs when other work shares the machine.
        "cpu_seconds_median": round(statistics.median(cpu), 3),
        "peak_mib": round(peak, 1),
        "pdf_kib": round(len(pdf) / 1024, 1),
    }


def _in_subprocess(name: str, repeat: int) -> dict[str, object]:
    command = [sys.executable, __file__, "--case", name, "--repeat", str(repeat)]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _verdicts(cases: dict[str, dict]) -> dict[str, object]:
    muster, bare = cases["muster_labels_1000"], cases["weasyprint_bare_1000"]
    verdict: dict[str, object] = {
        "muster_vs_bare_weasyprint": round(muster["seconds_median"] / bare["seconds_median"], 2),
        "muster_vs_reportlab": round(
            muster["seconds_median"] / max(cases["reportlab_1000"]["seconds_median"], 1e-6), 1
        ),
    }
    for name, budget in BUDGETS.items():
        case = cases[name]
        verdict[f"{name}_within_time_budget"] = case["seconds_median"] <= budget["seconds"]
        if "peak_mib" in budget:
            verdict[f"{name}_within_memory_budget"] = case["peak_mib"] <= budget["peak_mib"]
    verdict["muster_no_slower_than_bare"] = muster["seconds_median"] <= bare["seconds_median"]
    return verdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=sorted(CASES))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.repeat)))
        return
    load_before = round(os.getloadavg()[0], 2)
    cases = {name: _in_subprocess(name, args.repeat) for name in CASES}
    report = {
        "benchmark": "printing",
        "cpus": os.cpu_count(),
        "load_average_1m": {"start": load_before, "end": round(os.getloadavg()[0], 2)},
        "budgets": BUDGETS,
        "cases": cases,
        "verdict": _verdicts(cases),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
