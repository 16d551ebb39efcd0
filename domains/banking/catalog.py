"""What the banking generator posts: merchants and their price ranges, deposits and fees."""

from __future__ import annotations

# (merchant as it appears on a statement, lowest and highest amount in dollars)
MERCHANTS: tuple[tuple[str, float, float], ...] = (
    ("Whole Foods Market", 18.0, 160.0),
    ("Trader Joe's", 12.0, 95.0),
    ("Safeway", 15.0, 140.0),
    ("Costco Wholesale", 40.0, 420.0),
    ("Target", 9.0, 180.0),
    ("Amazon Marketplace", 7.0, 260.0),
    ("Best Buy", 25.0, 900.0),
    ("Home Depot", 12.0, 480.0),
    ("Shell Gas Station", 25.0, 85.0),
    ("Chevron", 22.0, 90.0),
    ("Starbucks", 4.0, 18.0),
    ("Chipotle", 9.0, 32.0),
    ("Uber Trip", 8.0, 65.0),
    ("Lyft Ride", 7.0, 55.0),
    ("Netflix", 15.49, 15.49),
    ("Spotify", 10.99, 10.99),
    ("Delta Air Lines", 120.0, 780.0),
    ("Marriott Hotels", 140.0, 620.0),
    ("CVS Pharmacy", 6.0, 75.0),
    ("Walgreens", 5.0, 60.0),
    ("Apple Store", 1.0, 1300.0),
    ("IKEA", 30.0, 700.0),
    ("REI Co-op", 20.0, 350.0),
    ("Local Diner", 12.0, 60.0),
    ("City Parking", 3.0, 28.0),
    ("Electric Utility Co", 45.0, 210.0),
    ("Verizon Wireless", 55.0, 140.0),
    ("Planet Fitness", 10.0, 25.0),
    ("Etsy", 8.0, 120.0),
    ("StubHub", 40.0, 450.0),
)

# (monthly subscription as it appears on a statement, its fixed amount in dollars): a customer
# who set one up is charged the same amount on the same day of every month
SUBSCRIPTIONS: tuple[tuple[str, float], ...] = (
    ("Hulu Subscription", 17.99),
    ("Disney Plus", 13.99),
    ("NYTimes Digital", 25.0),
    ("Adobe Creative Cloud", 59.99),
    ("Audible Membership", 14.95),
    ("Xbox Game Pass", 16.99),
    ("Peloton App", 12.99),
)

# (deposit as it appears on a statement, lowest and highest amount in dollars)
DEPOSITS: tuple[tuple[str, float, float], ...] = (
    ("Payroll direct deposit", 900.0, 4200.0),
    ("Mobile check deposit", 40.0, 1200.0),
    ("Zelle payment received", 15.0, 400.0),
    ("Tax refund", 200.0, 2500.0),
)

# (fee as it appears on a statement, amount in dollars); the first is the overdraft fee
FEES: tuple[tuple[str, float], ...] = (
    ("Overdraft fee", 35.0),
    ("Monthly maintenance fee", 12.0),
    ("Out-of-network ATM fee", 3.5),
    ("Outgoing wire transfer fee", 45.0),
    ("Paper statement fee", 2.0),
    ("Returned item fee", 30.0),
)
