#!/usr/bin/env bash
# Installs the official Neo4j drivers that tests/driver_flows.rs runs the flows with, under
# target/drivers (ignored by git): the Python driver 5.x and 6.x (virtual environments), the
# JavaScript driver 5.x and 6.x (npm), the Java driver 5.x and 6.x (Maven Central, compiled
# against with javac; 6.x needs Java 21 or later) and the Go driver v5 (the Go module proxy).
# Each is skipped when its toolchain is missing; a driver already installed is kept.
# Usage: tests/driver_flows/setup.sh [REPOSITORY_ROOT]
set -uo pipefail
ROOT="$(cd "${1:-$(dirname "$0")/../..}" && pwd)"
FLOWS="$ROOT/tests/driver_flows"
OUT="$ROOT/target/drivers"
mkdir -p "$OUT"

PY5=5.28.8
PY6=6.4.1
JS5=5.28.3
JS6=6.3.0
JAVA5=5.28.15
JAVA6=6.2.1

for v in 5 6; do
  want=$([ $v = 5 ] && echo $PY5 || echo $PY6)
  if ! "$OUT/py$v/bin/python" -c "import neo4j, sys; sys.exit(neo4j.__version__ != '$want')" >/dev/null 2>&1; then
    echo "== the Python driver $want into target/drivers/py$v"
    rm -rf "$OUT/py$v"
    ( python3 -m venv "$OUT/py$v" && "$OUT/py$v/bin/pip" install -q "neo4j==$want" pytz ) \
      || echo "could not install the Python driver $want" >&2
  fi
done

if command -v npm >/dev/null 2>&1; then
  for v in 5 6; do
    want=$([ $v = 5 ] && echo $JS5 || echo $JS6)
    if [ ! -f "$OUT/js$v/node_modules/neo4j-driver/package.json" ] \
        || ! grep -q "\"version\": \"$want\"" "$OUT/js$v/node_modules/neo4j-driver/package.json"; then
      echo "== the JavaScript driver $want into target/drivers/js$v"
      rm -rf "$OUT/js$v" && mkdir -p "$OUT/js$v"
      npm install --silent --no-audit --no-fund --prefix "$OUT/js$v" "neo4j-driver@$want" >/dev/null 2>&1 \
        || echo "could not install the JavaScript driver $want" >&2
    fi
  done
fi

if command -v mvn >/dev/null 2>&1; then
  JDK21=""
  for j in /usr/lib/jvm/temurin-25-jdk-amd64 /usr/lib/jvm/java-25-openjdk-amd64 /usr/lib/jvm/java-21-openjdk-amd64; do
    if [ -x "$j/bin/javac" ]; then JDK21=$j; break; fi
  done
  for v in 5 6; do
    want=$([ $v = 5 ] && echo $JAVA5 || echo $JAVA6)
    if [ $v = 5 ]; then javac=$(command -v javac); java=$(command -v java); else javac="$JDK21/bin/javac"; java="$JDK21/bin/java"; fi
    [ -x "$javac" ] || continue
    dir="$OUT/java$v"
    if [ ! -f "$dir/Flows.class" ] || [ "$(cat "$dir/version" 2>/dev/null)" != "$want" ] \
        || [ "$FLOWS/java/Flows.java" -nt "$dir/Flows.class" ]; then
      echo "== the Java driver $want into target/drivers/java$v"
      rm -rf "$dir" && mkdir -p "$dir"
      ( cd "$FLOWS/java" \
        && mvn -q -Ddriver.version="$want" dependency:build-classpath -Dmdep.outputFile="$dir/classpath" \
        && "$javac" -nowarn -d "$dir" -cp "$(cat "$dir/classpath")" Flows.java 2>/dev/null \
        && echo "$want" > "$dir/version" && echo "$java" > "$dir/java" ) \
        || echo "could not install the Java driver $want" >&2
    fi
  done
fi

if command -v go >/dev/null 2>&1; then
  if [ ! -x "$OUT/go/flows" ] || [ "$FLOWS/go/flows.go" -nt "$OUT/go/flows" ]; then
    echo "== the Go driver (go.mod's version) into target/drivers/go"
    mkdir -p "$OUT/go"
    ( cd "$FLOWS/go" && GOFLAGS=-mod=mod go build -o "$OUT/go/flows" . ) \
      || echo "could not build the Go flows" >&2
  fi
fi
