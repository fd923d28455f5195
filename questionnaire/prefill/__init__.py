"""Filling answers from a file the customer already has: a model's ``config.json`` or a
training recipe (Axolotl, torchtune, LLaMA-Factory, DeepSpeed, Megatron-LM).

``reading`` turns the uploaded bytes into plain data safely, ``formats`` recognises the file and
hands it to the reader of its format, each of which says what it found (``found.Found``);
``changes`` checks the values with the questions' own forms and compares them with the draft;
``services`` saves them once the customer confirms; ``views`` are the two pages.
"""
