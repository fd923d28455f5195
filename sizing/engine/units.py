"""Unit conversions, one constant per fact, so no module defines its own gigabyte or hour.

Decimal prefixes throughout, as accelerator, network and storage datasheets use them: a GB is
10^9 bytes [1]_, a TB 10^3 GB, and a byte 8 bits [2]_.  A year of use is 365 days of 24 hours
(8,760 h), the basis on which cloud prices per hour and owned hardware per year are compared.

References
----------
.. [1] BIPM, The International System of Units (SI Brochure), 9th edition, 2019, table 7
       (SI prefixes: giga = 10^9, tera = 10^12); table 8 (hour = 3,600 s, day = 24 h).
.. [2] IEC 80000-13:2008, Quantities and units - Part 13: Information science and technology,
       items 13-9 (byte = 8 bit) and annex A (decimal, not binary, prefixes for G and T).
"""

BILLION = 1e9  # a count in billions (parameters, tokens): "7B" is 7 x BILLION
BYTES_PER_GB = 1e9  # [B/GB]
GB_PER_TB = 1e3  # [GB/TB]
MB_PER_GB = 1e3  # [MB/GB]
BITS_PER_BYTE = 8.0  # [bit/B]

SECONDS_PER_HOUR = 3600.0  # [s/h]
MINUTES_PER_HOUR = 60.0  # [min/h]
HOURS_PER_DAY = 24.0  # [h/d]
HOURS_PER_YEAR = 8760.0  # [h/yr] 365 days
MONTHS_PER_YEAR = 12.0
HOURS_PER_MONTH = HOURS_PER_YEAR / MONTHS_PER_YEAR  # [h] 730
