"""The properties of the hotel group and their room types."""

from __future__ import annotations

import msgspec


class RoomType(msgspec.Struct, frozen=True):
    """A kind of room a property sells: its code, beds and most guests."""

    code: str
    name: str
    beds: str
    max_guests: int


class Property(msgspec.Struct, frozen=True):
    """A hotel of the group: where it is, its check-in and check-out times, its room types."""

    property_id: str
    name: str
    city: str
    check_in_time: str
    check_out_time: str
    base_rate: float
    room_types: tuple[RoomType, ...]

    def room(self, code: str) -> RoomType | None:
        """The room type ``code`` of this property, or None."""
        return next((r for r in self.room_types if r.code == code), None)


ROOM_FACTOR: dict[str, float] = {"standard": 1.0, "deluxe": 1.4, "suite": 2.3}
"""A room type's nightly rate as a multiple of the property's standard rate."""

_ROOMS = (
    RoomType("standard", "Standard Queen", "1 queen bed", 2),
    RoomType("deluxe", "Deluxe King", "1 king bed and a sofa bed", 3),
    RoomType("suite", "One-Bedroom Suite", "1 king bed and 2 sofa beds", 4),
)

# (id, name, city, standard base rate)
_HOTELS: tuple[tuple[str, str, str, float], ...] = (
    ("SEA01", "Harborline Seattle", "Seattle, WA", 189.0),
    ("SFO01", "Fog City Suites", "San Francisco, CA", 229.0),
    ("NYC01", "Hudson Park Hotel", "New York, NY", 259.0),
    ("CHI01", "Lakeshore Grand", "Chicago, IL", 179.0),
    ("MIA01", "Coral Bay Resort", "Miami, FL", 209.0),
    ("DEN01", "Summit Lodge", "Denver, CO", 149.0),
    ("AUS01", "Congress Avenue Inn", "Austin, TX", 139.0),
    ("BOS01", "Beacon Hill House", "Boston, MA", 219.0),
)

PROPERTIES: tuple[Property, ...] = tuple(
    Property(pid, name, city, "15:00", "11:00", rate, _ROOMS) for pid, name, city, rate in _HOTELS
)
