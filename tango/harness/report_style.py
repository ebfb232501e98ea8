"""The stylesheet and the small script of report.html (inline: the page loads nothing from elsewhere).

The script sorts the episode table by a clicked column (numbers as numbers, by each cell's data-sort) and
filters its rows by text, outcome and failure cause, saying how many rows are shown.
"""

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.2em 2em; color: #1a202c; }
h1 { margin-bottom: 0.1em; } h2 { margin-top: 1.4em; border-bottom: 1px solid #ddd; }
.status { color: #555; margin-top: 0; }
table { border-collapse: collapse; }
table.kv th { text-align: left; padding: 3px 12px 3px 0; vertical-align: top; white-space: nowrap; }
table.kv td { padding: 3px 0; font-size: 14px; }
#episodes { width: 100%; font-size: 13px; }
#episodes th { position: sticky; top: 0; background: #edf2f7; cursor: pointer; padding: 5px 6px;
  text-align: left; user-select: none; }
#episodes th.asc::after { content: " ▲"; } #episodes th.desc::after { content: " ▼"; }
#episodes td { border-top: 1px solid #e2e8f0; padding: 4px 6px; vertical-align: top; }
#episodes tr.first td { border-top: 2px solid #a0aec0; }
td.goal { max-width: 28em; } img.goal { max-height: 90px; display: block; margin-bottom: 3px; }
img.map { height: 110px; image-rendering: pixelated; }
.badge { padding: 1px 6px; border-radius: 8px; font-size: 12px; }
.badge.success { background: #c6f6d5; } .badge.failure { background: #fed7d7; } .badge.error { background: #feb2b2; }
.cause { font-weight: 600; } .note, .reason { color: #4a5568; font-size: 12px; } .reason { color: #9b2c2c; }
.dim { color: #a0aec0; } .ci { color: #4a5568; font-size: 12px; }
pre { margin: 0; white-space: pre-wrap; font-size: 12px; max-width: 48em; }
.charts { display: flex; flex-wrap: wrap; gap: 18px; }
svg.chart { border: 1px solid #e2e8f0; background: #fff; }
svg .title { font-size: 13px; font-weight: 600; } svg .tick, svg .value { font-size: 10px; fill: #4a5568; }
svg .label { font-size: 11px; } svg .grid { stroke: #e2e8f0; }
table.metrics { margin-top: 12px; font-size: 14px; }
table.metrics th, table.metrics td { padding: 3px 10px; text-align: left; border-bottom: 1px solid #edf2f7; }
.fields { font-size: 12px; color: #4a5568; line-height: 1.6; }
.filters { margin: 0.6em 0; display: flex; gap: 8px; align-items: center; }
.filters input { width: 22em; padding: 3px; } .legend { font-size: 12px; color: #4a5568; }
"""

SCRIPT = """
(function () {
  const table = document.getElementById('episodes');
  const body = table.tBodies[0];
  const text = document.getElementById('filter-text');
  const outcome = document.getElementById('filter-outcome');
  const cause = document.getElementById('filter-cause');
  const shown = document.getElementById('shown');
  function key(row, col) {
    const cell = row.cells[col];
    const raw = cell.dataset.sort !== undefined ? cell.dataset.sort : cell.textContent.trim();
    const number = Number(raw);
    return raw !== '' && !isNaN(number) ? number : raw;
  }
  table.tHead.querySelectorAll('th').forEach(function (th) {
    th.addEventListener('click', function () {
      const col = Number(th.dataset.col);
      const ascending = !th.classList.contains('asc');
      table.tHead.querySelectorAll('th').forEach(function (h) { h.classList.remove('asc', 'desc'); });
      th.classList.add(ascending ? 'asc' : 'desc');
      const rows = Array.from(body.rows);
      rows.sort(function (a, b) {
        const x = key(a, col), y = key(b, col);
        const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
  function apply() {
    const needle = text.value.toLowerCase();
    let count = 0;
    Array.from(body.rows).forEach(function (row) {
      const visible = (!needle || row.textContent.toLowerCase().includes(needle))
        && (!outcome.value || row.dataset.outcome === outcome.value)
        && (!cause.value || row.dataset.cause === cause.value);
      row.style.display = visible ? '' : 'none';
      count += visible ? 1 : 0;
    });
    shown.textContent = count + ' of ' + body.rows.length + ' rows';
  }
  [text, outcome, cause].forEach(function (el) { el.addEventListener('input', apply); });
  apply();
})();
"""
