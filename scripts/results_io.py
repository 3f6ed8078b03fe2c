"""Reads results files whether stored plain or xz-compressed. bench/results keeps files over
200 KiB as NAME.xz (test/checks/results_cited.py); logs and commands may name NAME, so either name opens
whichever of the two exists.

    from results_io import load_result, open_result
"""
import json
import lzma
import os


def resolve(path):
    """path if it exists, else its other form (NAME <-> NAME.xz) if that exists, else path."""
    if os.path.exists(path):
        return path
    other = path[:-len('.xz')] if path.endswith('.xz') else path + '.xz'
    return other if os.path.exists(other) else path  # opening it then names the path asked for


def open_result(path):
    """A text stream of the file at path or path.xz (decompressed on the fly)."""
    path = resolve(path)
    if path.endswith('.xz'):
        return lzma.open(path, 'rt', encoding='utf-8')
    return open(path, encoding='utf-8')


def load_result(path):
    """The JSON document in the file at path or path.xz."""
    with open_result(path) as f:
        return json.load(f)
