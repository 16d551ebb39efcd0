"""The domain kit: what every customer-service world shares.

- ``people``: customers (name, address, email, payment methods, account + PIN), unique ids,
  the customer generator and address helpers; ``vocab``: names, cities, streets, card brands.
- ``payments``: payment methods with balances, funds checks, credits, how users name them.
- ``identity``: authentication factors (email, name + zip, account number + PIN), their
  indexes and lookup tools, the identity a task's user proves.
- ``tools``: ``calculate`` and ``transfer_to_human_agents`` (which ends the conversation).
- ``lookup``: ``load`` for tools, ``record`` / ``pick`` for intents.
- ``tasks``: the task assembler (``CustomerIntent``) and the hints of the standard slots.
"""
