"""The domain kit: what every customer-service world shares.

- ``people``: customers (name, address, email, payment methods, account + PIN), unique ids,
  the customer generator, ``hand_over`` (each customer's drawn records) and address helpers;
  ``vocab``: names, cities, streets, card brands.
- ``payments``: payment methods with balances, funds checks, charges, refunds, caps, how users
  name them, ``card_for`` and ``diff_text``; ``codes``: record codes (a tool's deterministic
  ``new_code``, a base generator's ``drawn_code``); ``calc``: arithmetic, dates, days, months,
  minutes and ages.
- ``identity``: authentication factors (email, name + zip, account number + PIN), their
  indexes and lookup tools, the identity a task's user proves.
- ``tools``: ``calculate``, ``days_between`` and ``transfer_to_human_agents`` (which ends the
  conversation); ``address_tool`` (a customer's or an order's address) and ``profile_tool``
  under a domain's own names; ``declared``, a tool of string parameters built at run time.
- ``lookup``: ``load`` / ``loader`` for tools, ``record`` / ``pick`` / ``picker`` for intents,
  ``order_key`` and ``require_status`` for the worlds that sell orders.
- ``tasks``: the task assembler (``CustomerIntent``), the common mistakes, ``replay_actions``,
  ``CONFIRM``, and the hints of the standard slots (``address_hint``, ``RESERVATION_WORDS``);
  ``world``: ``register_world``, a domain's one registration call.
"""
