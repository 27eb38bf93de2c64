"""Validates a SARIF log against the OASIS SARIF 2.1.0 JSON schema (draft-07) with the
jsonschema package. Usage: sarif_check.py LOG.sarif SCHEMA.json"""

import json
import sys

import jsonschema

log = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[2]))
errors = list(jsonschema.Draft7Validator(schema).iter_errors(log))
for e in errors[:10]:
    print(f"{list(e.absolute_path)}: {e.message}")
sys.exit(1 if errors else 0)
