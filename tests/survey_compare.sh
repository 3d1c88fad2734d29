#!/bin/sh
# Run the surveys with one checkout's checker and compare two runs byte for byte (issue 21:
# "the blind, unseen and held-out surveys give byte-identical report lists before and after").
#
#   tests/survey_compare.sh run LABEL PYTHON [SURVEY ...]
#       PYTHON is the venv python of the checkout to measure (its flake8_escapes is the one
#       imported); runs this checkout's tests/survey.py --select ESC3,ESC4,ESC5 --py2 --tsv over
#       $SURVEYS/<survey> for each survey (default: unseen holdout blind), one after the other,
#       writing $SURVEYS/out/LABEL-<survey>.tsv (reports and silenced candidates) and .out (the
#       printed list and counts).
#   tests/survey_compare.sh compare LABEL_A LABEL_B [SURVEY ...]
#       cmp of LABEL_A-<survey>.tsv and LABEL_B-<survey>.tsv: one line per survey; exit 1 if any differs.
#
# SURVEYS defaults to /work/surveys; each tree is laid out by tests/fetch_releases.py from
# tests/data/survey_<survey>.txt.  The options are the earlier surveys' (tests/data/survey_*.md),
# with ESC3 added so that the invalid-escape family is compared too.
set -eu
SURVEYS=${SURVEYS:-/work/surveys}
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=$SURVEYS/out
mode=${1:?usage: run LABEL PYTHON [SURVEY ...] | compare LABEL_A LABEL_B [SURVEY ...]}
shift
case $mode in
run)
    label=$1 python=$2
    shift 2
    [ $# -gt 0 ] || set -- unseen holdout blind
    mkdir -p "$OUT"
    (cd / && "$python" -c 'import flake8_escapes, sys; print("checker:", flake8_escapes.__file__, "Python", sys.version.split()[0])') >&2
    for survey in "$@"; do
        "$python" "$HERE/survey.py" --select ESC3,ESC4,ESC5 --py2 --tsv "$OUT/$label-$survey.tsv" \
            "$SURVEYS/$survey" > "$OUT/$label-$survey.out"
        echo "$label-$survey: $(tail -n 2 "$OUT/$label-$survey.out" | tr '\n' ' ')" >&2
    done
    ;;
compare)
    a=$1 b=$2
    shift 2
    [ $# -gt 0 ] || set -- unseen holdout blind
    status=0
    for survey in "$@"; do
        rows=$(($(wc -l < "$OUT/$a-$survey.tsv") - 1))
        if cmp -s "$OUT/$a-$survey.tsv" "$OUT/$b-$survey.tsv"; then
            echo "$survey: identical ($rows rows: reports and silenced candidates)"
        else
            echo "$survey: DIFFERENT: $(cmp "$OUT/$a-$survey.tsv" "$OUT/$b-$survey.tsv" 2>&1 | head -n 1)"
            status=1
        fi
    done
    exit $status
    ;;
*)
    echo "unknown mode $mode (run or compare)" >&2
    exit 2
    ;;
esac
