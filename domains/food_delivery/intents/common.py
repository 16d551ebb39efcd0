"""The food-delivery intents' base class and the order helpers they share."""

from __future__ import annotations

from tau_sim.domains.food_delivery.data import Order, Restaurant, User
from tau_sim.domains.food_delivery.scenario import ELSEWHERE, UNKNOWN_IDS
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Task


class FoodIntent(CustomerIntent):
    """A food-delivery customer: email (60%) or name + zip; never knows item or restaurant ids."""

    factors = ((EMAIL, 0.6), (NAME_ZIP, 0.4))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested change of the user's default address; the last write left out."""
        extra = Action("modify_user_address", {"user_id": self.profile_user(task), **ELSEWHERE})
        reads = [a for a in task.actions if a.name not in domain.toolkit.endings]
        return [[*reads, extra], *self.last_write_left_out(domain, task)]


# ---- sampling helpers -------------------------------------------------------------------------


pick_order = picker("orders", Order)


def restaurant_of(db: Database, order: Order) -> Restaurant:
    """The restaurant of ``order``."""
    restaurant: Restaurant = record(db, "restaurants", order.restaurant_id)
    return restaurant


def user_of(db: Database, order: Order) -> User:
    """The customer of ``order``."""
    user: User = record(db, "users", order.user_id)
    return user


def order_from(db: Database, order_id: str) -> Order:
    """The order ``order_id`` of a fresh database (mistakes rebuild what the task was about)."""
    order: Order = record(db, "orders", order_id)
    return order
