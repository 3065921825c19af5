// Reports: CSV tables, SVG maps and the HTML report, built only from Harness records and Geo
// shapes. Its contents arrive with the reports issue; until then the module is intentionally
// empty (no placeholder API).
