// A page's WebSocket to the server (a table's /ws/CODE, Learn to play's
// /learn/ws): its first message sent on opening, every frame parsed as JSON
// (a frame that is not is dropped), and the socket handed back with each
// frame and the close, so a page that has replaced it ignores the old one's.
export function openSocket(path, hello, onFrame, onClose) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const sock = new WebSocket(`${proto}//${location.host}${path}`);
  sock.onopen = () => sock.send(JSON.stringify(hello()));
  sock.onmessage = (e) => {
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    onFrame(sock, msg);
  };
  sock.onclose = (e) => onClose(sock, e);
  return sock;
}
