"""companion: the code behind the seq2seq monograph.

Data -> models -> train -> decode -> evaluate -> plots; see DESIGN.md.
"""

__version__ = "0.1.0"
