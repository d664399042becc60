// Ask for the chart's data before plotly.js is parsed: the two overlap (timeline.js picks it up).
window.ONRECORD_FIRST = fetch("/api/timeline" + location.search);
