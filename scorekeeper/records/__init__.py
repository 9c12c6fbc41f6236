"""The record layer: matches, their hands and their players as stored, between the web and the engine.

- `reads.py`: the view of a match a page or an answer needs (`Scored`), read from the stored states
  without a replay;
- `writes.py`: every change to a match (the claim, hands, set-up, finish, deletion, seats);
- `keys.py`: who may write to a match.

Refusals are the domain errors of `scorekeeper/errors.py`; how a match is shown (page text, the
API's JSON) is the web's (`matches/present.py`, `api/answers.py`)."""
