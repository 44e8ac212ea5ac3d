#!/usr/bin/env bash
# Plays a short protocol session with the Windows build under wine and checks the replies.
set -euo pipefail
exe=$1
export WINEDEBUG=-all WINEPREFIX=${WINEPREFIX:-$(mktemp -d)}
out=$( (printf 'ABOUT\r\nSTART 15\r\nINFO rule 4\r\nINFO timeout_turn 300\r\n'
        printf 'BOARD\r\n7,7,2\r\n8,8,1\r\n7,8,2\r\nDONE\r\nYXBOARD\r\n7,7,1\r\n8,7,1\r\n7,8,1\r\n8,9,1\r\n'
        printf 'DONE\r\nYXSHOWFORBID\r\n'
        sleep 20
        printf 'END\r\n') | timeout 120 wine "$exe" 2>/dev/null | tr -d '\r' | grep -v '^MESSAGE')
echo "$out" >&2
echo "$out" | grep -q '^name="Moku"' || { echo "wine session: no ABOUT reply" >&2; exit 1; }
echo "$out" | grep -qx 'OK' || { echo "wine session: no OK to START" >&2; exit 1; }
echo "$out" | grep -qE '^[0-9]+,[0-9]+$' || { echo "wine session: no move" >&2; exit 1; }
echo "$out" | grep -qE '^FORBID ([0-9]{4})*\.$' || { echo "wine session: no FORBID reply" >&2; exit 1; }
echo "wine session: ok" >&2
