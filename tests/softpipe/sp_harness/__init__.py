"""The softpipe oracle harness: runs corpus GLSL on Mesa's softpipe and records its TGSI.

Modules: environment (selecting softpipe, opening the context), dump (capturing and parsing
softpipe's shader dumps), bindings (the GLSL-to-TGSI register map), resources (GL objects for a
case's inputs) and runner (one case end to end). The command line is ../run_cases.py.
"""
