"""Validates a JUnit XML file against Jenkins' JUnit schema (junit-10.xsd, as the xunit
plugin publishes it) with lxml. Usage: junit_check.py REPORT.xml SCHEMA.xsd..."""

import sys

from lxml import etree

doc = etree.parse(sys.argv[1])
for xsd in sys.argv[2:]:
    schema = etree.XMLSchema(etree.parse(xsd))
    if not schema.validate(doc):
        print(f"{xsd}: {schema.error_log}")
        sys.exit(1)
print(f"valid against {len(sys.argv) - 2} schemas")
