"""The domain kit: what every customer-service world shares.

- ``people``: customers (name, address, email, payment methods, account + PIN), unique ids,
  the customer generator and address helpers; ``vocab``: names, cities, streets, card brands.
- ``payments``: payment methods with balances, funds checks, charges, refunds, caps, how users
  name them, ``card_for`` and ``diff_text``; ``codes``: deterministic record codes; ``calc``:
  arithmetic, dates, days, months, minutes and ages.
- ``identity``: authentication factors (email, name + zip, account number + PIN), their
  indexes and lookup tools, the identity a task's user proves.
- ``tools``: ``calculate``, ``days_between`` and ``transfer_to_human_agents`` (which ends the
  conversation); ``address_tool`` and ``profile_tool`` under a domain's own names.
- ``lookup``: ``load`` / ``loader`` for tools, ``record`` / ``pick`` / ``picker`` for intents.
- ``tasks``: the task assembler (``CustomerIntent``), the common mistakes, ``replay_actions``,
  and the hints of the standard slots; ``world``: ``register_world``, a domain's one
  registration call.
"""
