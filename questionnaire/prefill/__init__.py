"""Filling answers from what the customer already has: a model's ``config.json`` or a training
recipe (Axolotl, torchtune, LLaMA-Factory, DeepSpeed, Megatron-LM), or the sentence they wrote on
the discovery page.

``reading`` turns the uploaded bytes into plain data safely, ``formats`` recognises the file and
hands it to the reader of its format, each of which says what it found (``found.Found``);
``sentence`` reads the discovery sentence into the same kind of findings, and ``words`` offers
them after the discovery page; ``changes`` checks the values with the questions' own forms and
compares them with the draft; ``services`` saves them once the customer confirms and ``marks``
says which answers were filled; ``views`` are the pages.
"""
