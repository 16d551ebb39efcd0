"""The restaurants' cuisines, names and dishes the food-delivery generator draws from."""

from __future__ import annotations

# cuisine -> (restaurant name stems, dishes: (name, base price, option choices))
CUISINES: dict[str, tuple[tuple[str, ...], tuple[tuple[str, float, tuple[str, ...]], ...]]] = {
    "pizza": (
        ("Slice Republic", "Brick Oven Co.", "Luigi's", "Crust & Co."),
        (
            ("Margherita Pizza", 14.0, ("small", "large")),
            ("Pepperoni Pizza", 16.0, ("small", "large")),
            ("Veggie Pizza", 15.0, ("small", "large")),
            ("Garlic Knots", 6.5, ()),
            ("Caesar Salad", 9.0, ("with chicken", "without chicken")),
            ("Tiramisu", 7.0, ()),
            ("Soda", 2.5, ("cola", "lemon-lime", "orange")),
        ),
    ),
    "sushi": (
        ("Sakura Sushi", "Tokyo Roll", "Umi Bar", "Koi House"),
        (
            ("Salmon Roll", 9.5, ()),
            ("Spicy Tuna Roll", 10.5, ("mild", "extra spicy")),
            ("California Roll", 8.0, ()),
            ("Miso Soup", 3.5, ()),
            ("Edamame", 5.0, ("salted", "garlic")),
            ("Chirashi Bowl", 21.0, ()),
            ("Green Tea", 3.0, ("hot", "iced")),
        ),
    ),
    "burgers": (
        ("Patty Wagon", "Grill Station", "Stack Shack", "Burger Barn"),
        (
            ("Classic Burger", 11.0, ("medium", "well done")),
            ("Cheeseburger", 12.0, ("medium", "well done")),
            ("Veggie Burger", 11.5, ()),
            ("French Fries", 4.5, ("regular", "large")),
            ("Onion Rings", 5.0, ()),
            ("Milkshake", 6.0, ("vanilla", "chocolate", "strawberry")),
            ("Chicken Wings", 10.0, ("buffalo", "barbecue")),
        ),
    ),
    "mexican": (
        ("Casa Verde", "Taco Loco", "El Fogon", "La Palma"),
        (
            ("Chicken Burrito", 11.5, ("mild", "hot")),
            ("Carnitas Tacos", 10.0, ("corn tortilla", "flour tortilla")),
            ("Veggie Quesadilla", 9.0, ()),
            ("Chips and Guacamole", 6.5, ()),
            ("Elote", 4.5, ()),
            ("Horchata", 3.5, ()),
            ("Churros", 5.5, ()),
        ),
    ),
    "indian": (
        ("Spice Route", "Curry Leaf", "Taj Kitchen", "Masala House"),
        (
            ("Chicken Tikka Masala", 16.0, ("mild", "medium", "hot")),
            ("Palak Paneer", 14.0, ("mild", "medium", "hot")),
            ("Lamb Biryani", 18.0, ()),
            ("Garlic Naan", 3.5, ()),
            ("Samosas", 6.0, ()),
            ("Mango Lassi", 4.5, ()),
            ("Dal Makhani", 12.0, ()),
        ),
    ),
    "thai": (
        ("Bangkok Bites", "Lotus Thai", "Siam Garden", "Thai Basil"),
        (
            ("Pad Thai", 13.0, ("chicken", "tofu", "shrimp")),
            ("Green Curry", 14.0, ("mild", "medium", "hot")),
            ("Tom Yum Soup", 8.0, ()),
            ("Spring Rolls", 6.0, ()),
            ("Mango Sticky Rice", 7.0, ()),
            ("Thai Iced Tea", 4.0, ()),
            ("Basil Fried Rice", 12.5, ("chicken", "tofu")),
        ),
    ),
    "chinese": (
        ("Golden Dragon", "Jade Palace", "Wok This Way", "Red Lantern"),
        (
            ("Kung Pao Chicken", 13.5, ("mild", "hot")),
            ("Beef and Broccoli", 14.5, ()),
            ("Vegetable Lo Mein", 11.0, ()),
            ("Pork Dumplings", 8.0, ("steamed", "fried")),
            ("Hot and Sour Soup", 5.5, ()),
            ("Egg Rolls", 5.0, ()),
            ("Fried Rice", 9.5, ("chicken", "vegetable")),
        ),
    ),
    "mediterranean": (
        ("Olive Tree", "Pita Pit Stop", "Aegean Grill", "Cedar Kitchen"),
        (
            ("Chicken Shawarma Plate", 15.0, ()),
            ("Falafel Wrap", 10.0, ("with tahini", "without tahini")),
            ("Hummus and Pita", 7.0, ()),
            ("Greek Salad", 9.5, ()),
            ("Lamb Gyro", 12.0, ()),
            ("Baklava", 5.0, ()),
            ("Mint Lemonade", 3.5, ()),
        ),
    ),
}
