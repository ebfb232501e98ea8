"""Name pools for the generated district: shop categories (with the everyday needs that imply them), shop name
words, street names and landmarks. Names are invented; categories follow common POI categories."""

from __future__ import annotations

# category -> (noun used in shop names, everyday intents that imply it (implicit-intent tasks), icon colour RGB)
CATEGORIES: dict[str, tuple[str, tuple[str, ...], tuple[int, int, int]]] = {
    "bank": ("Bank", ("I need to deposit some money.", "I have to open a savings account."), (0, 92, 175)),
    "pharmacy": (
        "Pharmacy",
        ("I have a headache and need some painkillers.", "My prescription needs filling."),
        (0, 150, 70),
    ),
    "cafe": (
        "Cafe",
        ("I could really use a cup of coffee.", "I want somewhere to sit with a latte."),
        (140, 80, 30),
    ),
    "optician": (
        "Optical",
        ("My eyes are acting up and I need an eye check.", "I broke my glasses."),
        (120, 0, 160),
    ),
    "bakery": (
        "Bakery",
        ("I want some fresh bread for breakfast.", "I need a birthday cake."),
        (205, 130, 0),
    ),
    "bookstore": (
        "Books",
        ("I am looking for a new novel to read.", "I need a travel guidebook."),
        (160, 30, 60),
    ),
    "supermarket": (
        "Market",
        ("I need groceries for dinner tonight.", "We ran out of milk and eggs."),
        (220, 60, 20),
    ),
    "hardware": (
        "Hardware",
        ("I need a screwdriver to fix a shelf.", "I have to buy some nails."),
        (90, 90, 90),
    ),
    "florist": (
        "Flowers",
        ("I want to buy roses for a friend.", "I need a bouquet for a wedding."),
        (230, 60, 150),
    ),
    "art_supplies": (
        "Art Supply",
        ("Where can I buy watercolour paints?", "I need sketchbooks and brushes."),
        (0, 160, 170),
    ),
    "phone_shop": (
        "Mobile",
        ("My phone screen cracked and needs fixing.", "I need a new SIM card."),
        (40, 40, 200),
    ),
    "clinic": ("Clinic", ("I have a fever and should see a doctor.", "I need a vaccination."), (200, 0, 0)),
    "post_office": ("Post", ("I need to send a parcel abroad.", "I have to buy some stamps."), (230, 190, 0)),
    "restaurant": (
        "Noodles",
        ("I am hungry and want a bowl of noodles.", "Let's get some lunch."),
        (170, 110, 60),
    ),
    "laundry": (
        "Laundry",
        ("My shirts need washing and ironing.", "I need my coat dry-cleaned."),
        (100, 150, 220),
    ),
    "gym": (
        "Fitness",
        ("I want to work out this evening.", "I need somewhere to lift weights."),
        (60, 120, 40),
    ),
}

NAME_WORDS = (
    "Jade",
    "Lotus",
    "Golden",
    "Harbour",
    "Peak",
    "Pearl",
    "Dragon",
    "Lantern",
    "Orchid",
    "Bamboo",
    "Silver",
    "Sunrise",
    "Kowloon",
    "Star",
    "Ocean",
    "Maple",
    "Crystal",
    "Phoenix",
    "Bright",
    "Lucky",
    "Cedar",
    "Coral",
    "Summit",
    "Willow",
    "Garden",
    "Victoria",
    "Cosmo",
    "Jasmine",
    "Eastern",
    "Red Door",
    "Blue Bay",
    "Lion Rock",
    "Typhoon",
    "Junk",
    "Temple",
    "Ferry",
    "Tram",
    "Market",
    "Crown",
    "Rainbow",
)

STREET_NAMES = (
    "Nathan Road",
    "Lantern Street",
    "Orchid Avenue",
    "Ferry Road",
    "Temple Street",
    "Bamboo Lane",
    "Harbour Road",
    "Pearl Street",
    "Peak Avenue",
    "Cedar Street",
    "Junk Bay Road",
    "Tram Street",
)

LANDMARKS = {
    "fountain": "Jubilee Fountain",
    "clock_tower": "Old Clock Tower",
    "tower": "Harbour Tower",
}

# how a request names a place of each category ("Take me to a ...")
CATEGORY_PHRASES = {
    "bank": "bank",
    "pharmacy": "pharmacy",
    "cafe": "cafe",
    "optician": "optician",
    "bakery": "bakery",
    "bookstore": "bookshop",
    "supermarket": "supermarket",
    "hardware": "hardware store",
    "florist": "florist",
    "art_supplies": "art supply shop",
    "phone_shop": "mobile phone shop",
    "clinic": "clinic",
    "post_office": "post office",
    "restaurant": "noodle restaurant",
    "laundry": "laundry",
    "gym": "gym",
}
