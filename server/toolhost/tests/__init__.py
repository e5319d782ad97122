"""Tests of the Quiver tool host; run from the repo root with
`python3 -W error -m unittest discover -s server/toolhost/tests -t server/toolhost`."""
