"""companion: the code behind the seq2seq monograph.

Data flows one way through the sub-packages::

    data -> models -> training -> decoding -> evaluation -> plots

``experiments`` holds what the chapters study beside the models (the hand-checked toy, the
recall task, n-gram baselines, gradient flow); ``commands`` the command-line tools.
"""

__version__ = "0.1.0"
