// The console's one stylesheet, sent in a nonce'd <style> (the CSP allows no other). Colours keep
// at least 4.5:1 contrast; nothing relies on hover; the layout folds to one column below 700px.
// htmx's own indicator styles are off (includeIndicatorStyles=false), so the busy state is here.
export const CONSOLE_STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; font-size: 16px; line-height: 1.45; color: #1b1b1b; background: #fff; }
* { box-sizing: border-box; }
body { margin: 0; }
a { color: #1a4fa0; }
a:hover { text-decoration-thickness: 2px; }
:focus-visible { outline: 3px solid #b35c00; outline-offset: 2px; }
.skip-link { position: absolute; left: 8px; top: -48px; background: #fff; padding: 8px 12px; border: 2px solid #1a4fa0; z-index: 10; }
.skip-link:focus { top: 8px; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.topbar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 8px 16px; background: #0f2d5c; color: #fff; }
.topbar a, .topbar summary { color: #fff; }
.brand { font-weight: 700; margin-right: auto; }
.switcher { position: relative; }
.switcher summary { cursor: pointer; padding: 6px 8px; border: 1px solid #8fa8d0; border-radius: 4px; list-style-position: inside; }
.switcher ul { position: absolute; z-index: 5; min-width: 240px; max-height: 60vh; overflow: auto; margin: 4px 0 0; padding: 4px 0; list-style: none; background: #fff; border: 1px solid #555; border-radius: 4px; }
.switcher li a { display: block; padding: 8px 12px; color: #1a4fa0; }
.switcher li a[aria-current] { font-weight: 700; }
.tenant-role { color: #444; font-size: .875rem; }
.user { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.user form { margin: 0; }
.user button { background: none; border: 1px solid #8fa8d0; color: #fff; padding: 4px 10px; }
.sections { border-bottom: 1px solid #ccc; background: #f3f5f9; }
.sections ul, .subnav ul { display: flex; flex-wrap: wrap; gap: 4px; margin: 0; padding: 4px 12px; list-style: none; }
.sections a, .subnav a { display: inline-block; padding: 8px 10px; border-radius: 4px; text-decoration: none; }
.sections a[aria-current], .subnav a[aria-current] { background: #1a4fa0; color: #fff; font-weight: 600; }
.subnav { margin: 0 0 16px; border-bottom: 1px solid #ccc; }
.subnav ul { padding: 0 0 8px; }
main { padding: 16px; max-width: 1100px; }
main:focus { outline: none; }
h1 { font-size: 1.5rem; margin: 0 0 12px; }
h2 { font-size: 1.2rem; margin: 24px 0 8px; }
h3 { font-size: 1.05rem; margin: 16px 0 8px; }
.table-scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 8px; border-bottom: 1px solid #ddd; }
th { background: #f3f5f9; }
.row-actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; }
.row-actions form, form.inline { display: flex; flex-wrap: wrap; gap: 8px; align-items: flex-end; margin: 0; }
.stack { display: grid; gap: 12px; max-width: 560px; margin: 0 0 16px; }
label { font-weight: 600; display: block; margin-bottom: 4px; }
.field { display: grid; gap: 4px; }
.help { color: #444; font-size: .9rem; margin: 0; }
input[type=text], input[type=email], input[type=url], input[type=number], input[type=datetime-local], select, textarea { font: inherit; padding: 6px 8px; border: 1px solid #555; border-radius: 4px; min-height: 40px; max-width: 100%; }
textarea { min-height: 64px; width: 100%; }
button { font: inherit; min-height: 40px; padding: 6px 14px; border-radius: 4px; border: 1px solid #1a4fa0; background: #1a4fa0; color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: #1a4fa0; }
button.danger { background: #a3162b; border-color: #a3162b; }
button[disabled] { opacity: .6; cursor: progress; }
.notice, .alert-region { margin: 8px 0; padding: 8px 12px; border-left: 4px solid; border-radius: 2px; }
.notice:focus { outline: 3px solid #b35c00; }
.notice-error { border-color: #a3162b; background: #fbeaec; color: #5c0b17; }
.notice-ok { border-color: #1d6b35; background: #e8f5ec; color: #0d3b1b; }
.empty-state { color: #444; font-style: italic; }
.status { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: .875rem; font-weight: 600; border: 1px solid #555; }
.busy-indicator { display: none; color: #444; }
.htmx-request .busy-indicator, .htmx-request.busy-indicator { display: inline; }
.copy-row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.copy-row input { flex: 1 1 260px; }
.grants { margin: 0; padding-left: 18px; }
details.member-grants summary { cursor: pointer; color: #1a4fa0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
@media (max-width: 700px) {
  main { padding: 12px; }
  .brand { width: 100%; }
  th, td { padding: 6px 4px; }
  .stacked-table thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .stacked-table tr { display: block; border-bottom: 1px solid #ccc; padding: 8px 0; }
  .stacked-table td { display: block; border: 0; padding: 4px 0; }
  .stacked-table td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; }
}
`;
