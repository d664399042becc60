// Ask for the chart's data before plotly.js is parsed: the two overlap (timeline.js picks it up).
// The case's prefix on a server of many cases ("/cases/<uid>"), "" on a server of one.
window.ONRECORD_BASE = document.querySelector('meta[name="onrecord-base"]').content;
window.ONRECORD_FIRST = fetch(window.ONRECORD_BASE + "/api/timeline" + location.search);
