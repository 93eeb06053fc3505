"""The live tables: the model, seats, the play pipeline, creation and the directory of
live tables, commits, ownership."""
