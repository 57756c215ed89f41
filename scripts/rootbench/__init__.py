"""rootbench: the suite's glue in Python (settings, lifecycle, bench).

Run by /usr/bin/python3 (Debian 12's, standard library only); an entry
script adds scripts/ to sys.path and imports rootbench.MODULE.
"""
