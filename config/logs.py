"""Log formatters: every record's structured fields (`extra=`) come out as data, not prose.

`JsonFormatter` writes one JSON object per line (what a log shipper wants); `KeyValueFormatter`
writes `time level logger message key=value ...` (what a person tailing a terminal wants).
A structured record names its event in the message (e.g. `battle.processed`) and carries the
facts in `extra`, so both formats show the same fields.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

# Attributes every LogRecord has; anything else on a record came from `extra=`.
_STANDARD = frozenset(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}


def structured_fields(record: logging.LogRecord) -> dict[str, object]:
    """Return the fields a caller passed with `extra=`."""
    return {k: v for k, v in vars(record).items() if k not in _STANDARD}


def _timestamp(record: logging.LogRecord) -> str:
    return datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": _timestamp(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **structured_fields(record),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def _value(value: object) -> str:
    plain = value is None or isinstance(value, bool | int | float | list | dict)
    text = json.dumps(value, default=str) if plain else str(value)
    return json.dumps(text) if (" " in text or not text) and not plain else text


class KeyValueFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        pairs = " ".join(f"{k}={_value(v)}" for k, v in structured_fields(record).items())
        line = f"{_timestamp(record)} {record.levelname} {record.name} {record.getMessage()}"
        line = f"{line} {pairs}" if pairs else line
        if record.exc_info:
            line = f"{line}\n{self.formatException(record.exc_info)}"
        return line
