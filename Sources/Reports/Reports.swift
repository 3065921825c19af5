// Reports: CSV tables, SVG maps and plots and the one-file HTML report, built only from
// Harness records and Geo shapes. One file per output kind.
