"""The product types the retail generator draws from (names, base prices, options)."""

from __future__ import annotations

# (product name, base price in dollars, option name -> values)
PRODUCT_TYPES: tuple[tuple[str, float, dict[str, tuple[str, ...]]], ...] = (
    (
        "T-Shirt",
        24.0,
        {"color": ("black", "white", "blue", "red", "green"), "size": ("S", "M", "L", "XL")},
    ),
    ("Hoodie", 59.0, {"color": ("grey", "black", "navy", "red"), "size": ("S", "M", "L", "XL")}),
    ("Jeans", 64.0, {"fit": ("slim", "regular", "relaxed"), "waist": ("30", "32", "34", "36")}),
    (
        "Running Shoes",
        110.0,
        {"color": ("black", "white", "blue", "orange"), "size": ("8", "9", "10", "11")},
    ),
    (
        "Hiking Boots",
        165.0,
        {"material": ("leather", "synthetic"), "size": ("8", "9", "10", "11", "12")},
    ),
    ("Rain Jacket", 89.0, {"color": ("yellow", "navy", "olive"), "size": ("S", "M", "L")}),
    ("Wool Socks", 18.0, {"color": ("grey", "brown", "black"), "size": ("M", "L")}),
    ("Backpack", 79.0, {"color": ("black", "grey", "green"), "capacity": ("20L", "30L", "40L")}),
    (
        "Water Bottle",
        22.0,
        {"capacity": ("500ml", "750ml", "1000ml"), "color": ("blue", "black", "pink")},
    ),
    (
        "Sunglasses",
        129.0,
        {"frame": ("black", "tortoise", "silver"), "lens": ("polarized", "standard")},
    ),
    (
        "Wristwatch",
        249.0,
        {"strap": ("leather", "metal", "silicone"), "dial": ("black", "white", "blue")},
    ),
    (
        "Laptop",
        1099.0,
        {
            "screen": ("13-inch", "15-inch"),
            "memory": ("8GB", "16GB", "32GB"),
            "storage": ("256GB", "512GB", "1TB"),
        },
    ),
    (
        "Tablet",
        429.0,
        {
            "screen": ("10-inch", "12-inch"),
            "storage": ("64GB", "128GB", "256GB"),
            "color": ("silver", "space grey"),
        },
    ),
    ("Smartphone Case", 29.0, {"model": ("A12", "A13", "A14"), "color": ("clear", "black", "red")}),
    ("Wireless Earbuds", 149.0, {"color": ("white", "black"), "noise cancelling": ("yes", "no")}),
    (
        "Headphones",
        199.0,
        {
            "type": ("over-ear", "on-ear"),
            "color": ("black", "silver", "blue"),
            "connectivity": ("wired", "wireless"),
        },
    ),
    ("Bluetooth Speaker", 89.0, {"color": ("black", "blue", "red"), "battery": ("12h", "20h")}),
    ("Smart Watch", 299.0, {"case": ("40mm", "44mm"), "color": ("black", "silver", "gold")}),
    ("E-Reader", 139.0, {"storage": ("8GB", "32GB"), "backlight": ("yes", "no")}),
    (
        "Mechanical Keyboard",
        119.0,
        {
            "switch": ("linear", "tactile", "clicky"),
            "layout": ("full", "tenkeyless"),
            "backlight": ("RGB", "white"),
        },
    ),
    (
        "Gaming Mouse",
        59.0,
        {
            "color": ("black", "white"),
            "sensor": ("optical", "laser"),
            "connectivity": ("wired", "wireless"),
        },
    ),
    (
        "Monitor",
        329.0,
        {"size": ("24-inch", "27-inch", "32-inch"), "resolution": ("1080p", "1440p", "4K")},
    ),
    ("Webcam", 69.0, {"resolution": ("720p", "1080p", "4K"), "microphone": ("yes", "no")}),
    ("USB-C Hub", 45.0, {"ports": ("4", "7", "10"), "color": ("grey", "silver")}),
    ("Desk Lamp", 49.0, {"color": ("white", "black", "brass"), "bulb": ("LED", "halogen")}),
    (
        "Office Chair",
        289.0,
        {"material": ("mesh", "leather", "fabric"), "color": ("black", "grey", "blue")},
    ),
    ("Standing Desk", 449.0, {"size": ("48-inch", "60-inch"), "color": ("oak", "walnut", "white")}),
    ("Bookshelf", 139.0, {"material": ("wood", "metal"), "height": ("4ft", "5ft", "6ft")}),
    (
        "Coffee Maker",
        99.0,
        {"capacity": ("4 cups", "8 cups", "12 cups"), "color": ("black", "stainless steel")},
    ),
    (
        "Electric Kettle",
        39.0,
        {"capacity": ("1L", "1.5L", "2L"), "material": ("glass", "stainless steel", "plastic")},
    ),
    ("Blender", 79.0, {"capacity": ("1L", "1.5L", "2L"), "color": ("black", "red", "white")}),
    ("Air Fryer", 119.0, {"capacity": ("3qt", "5qt", "6qt"), "color": ("black", "white")}),
    (
        "Cookware Set",
        189.0,
        {"material": ("stainless steel", "non-stick", "cast iron"), "pieces": ("5", "8", "10")},
    ),
    ("Chef Knife", 69.0, {"blade": ("6-inch", "8-inch", "10-inch"), "handle": ("wood", "plastic")}),
    (
        "Vacuum Cleaner",
        249.0,
        {"type": ("upright", "canister", "robotic"), "bagged": ("yes", "no")},
    ),
    (
        "Air Purifier",
        159.0,
        {"room size": ("small", "medium", "large"), "filter": ("HEPA", "carbon")},
    ),
    (
        "Bed Sheets",
        79.0,
        {
            "size": ("twin", "queen", "king"),
            "color": ("white", "grey", "blue"),
            "material": ("cotton", "linen"),
        },
    ),
    (
        "Pillow",
        35.0,
        {"fill": ("down", "foam", "polyester"), "firmness": ("soft", "medium", "firm")},
    ),
    ("Yoga Mat", 32.0, {"thickness": ("4mm", "6mm"), "color": ("purple", "green", "black")}),
    ("Dumbbell Set", 119.0, {"weight": ("20lb", "30lb", "50lb"), "material": ("iron", "rubber")}),
    ("Bicycle Helmet", 65.0, {"size": ("S", "M", "L"), "color": ("black", "white", "red")}),
    (
        "Tent",
        219.0,
        {"capacity": ("2-person", "4-person", "6-person"), "season": ("3-season", "4-season")},
    ),
    ("Sleeping Bag", 99.0, {"temperature": ("20F", "35F", "50F"), "color": ("green", "blue")}),
    ("Camping Stove", 59.0, {"fuel": ("propane", "butane"), "burners": ("1", "2")}),
    (
        "Digital Camera",
        649.0,
        {"resolution": ("20MP", "24MP", "30MP"), "zoom": ("3x", "5x", "10x")},
    ),
    ("Action Camera", 299.0, {"resolution": ("4K", "5K"), "color": ("black", "silver")}),
    ("Board Game", 39.0, {"theme": ("fantasy", "strategy", "party"), "players": ("2-4", "4-8")}),
    (
        "Jigsaw Puzzle",
        19.0,
        {"pieces": ("500", "1000", "2000"), "theme": ("landscape", "animals", "art")},
    ),
    ("Perfume", 85.0, {"scent": ("citrus", "floral", "woody"), "size": ("50ml", "100ml")}),
    (
        "Skateboard",
        89.0,
        {"deck": ("plastic", "maple", "bamboo"), "length": ("28-inch", "31-inch", "34-inch")},
    ),
)
